CREATE TABLE "submission_claims" (
	"key" text PRIMARY KEY NOT NULL,
	"form" text NOT NULL,
	"state" text NOT NULL,
	"status" integer,
	"message" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
