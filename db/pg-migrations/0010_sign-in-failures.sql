CREATE TABLE "sign_in_addresses" (
	"account" text NOT NULL,
	"address" text NOT NULL,
	"at" bigint NOT NULL,
	CONSTRAINT "sign_in_addresses_account_address_pk" PRIMARY KEY("account","address")
);
--> statement-breakpoint
CREATE TABLE "sign_in_failures" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" bigint NOT NULL,
	"last_at" bigint NOT NULL
);
