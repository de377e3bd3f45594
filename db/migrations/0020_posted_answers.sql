CREATE TABLE "posted_answers" (
	"id" text PRIMARY KEY NOT NULL,
	"form" text NOT NULL,
	"path_hash" text NOT NULL,
	"answer" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "posted_answers_created_idx" ON "posted_answers" USING btree ("created_at");