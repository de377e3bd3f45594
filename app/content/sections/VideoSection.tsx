import type { Section } from "../page-types";
import { ActionLinks, SectionFrame } from "./primitives";

type Video = Extract<Section, { kind: "video" }>;

/**
 * A short, silent local video (a few hundred kilobytes, WebM) with a poster;
 * nothing downloads until the visitor presses play. The description below
 * says in words what it shows.
 */
export function VideoSection({ section }: { section: Video }) {
  const v = section.video;
  return (
    <SectionFrame id={section.id} heading={section.heading} intro={section.text} tint={section.tint}>
      <figure className="content-video" data-reveal="">
        <video
          controls
          preload="none"
          playsInline
          muted
          poster={v.poster}
          width={v.width}
          height={v.height}
          aria-label={v.title}
          aria-describedby={`${section.id ?? "video"}-transcript`}
        >
          <source src={v.src} type="video/webm" />
          <p>
            Your browser cannot play this video. <a href={v.src}>Download it</a> instead.
          </p>
        </video>
        <figcaption id={`${section.id ?? "video"}-transcript`} className="content-note">
          {v.transcript}
        </figcaption>
      </figure>
      <div className="content-center">
        <ActionLinks links={section.links} />
      </div>
    </SectionFrame>
  );
}
