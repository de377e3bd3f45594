/** What reading a form body gives (./read-body.server.ts) and takes; the multipart reader shares them. */

/** A file that passed every rule, waiting in its temporary file for `storeUploads`. */
export type AcceptedUpload = { field: string; fileName: string; mime: string; size: number; path: string };

export type ParsedBody = {
  fields: FormData;
  uploads: AcceptedUpload[];
  /** Field name → messages (too many, too large, too large together, not an image). */
  uploadErrors: Record<string, string[]>;
  /** Removes this body's temporary files; safe to call more than once. */
  cleanup(): Promise<void>;
};

export type ReadBodyOptions = {
  /**
   * The caller's cheap checks (captcha, rate limit…), run before any file
   * byte is written, exactly once per body that is read whole: in a multipart
   * body when its first file part arrives (reading waits for it), with the
   * text fields read so far (the quote API's 'data' JSON part already spread
   * into fields, as readBody returns them); in a body without files (JSON,
   * URL-encoded, multipart with no file part) once it has been read, with
   * all its fields. What it throws, readBody throws unchanged, having written
   * nothing and removed any temporary file; the rest of the body is dropped.
   * A body refused before that point (too large, malformed) never calls it.
   */
  beforeFiles?: (fields: FormData) => Promise<void>;
  /**
   * Told when a file the visitor chose arrives for the rule's field (a part with a file name; an
   * empty file input sends none), before any check: a refused post's page says the choice was dropped.
   */
  onFileChosen?: () => void;
};
