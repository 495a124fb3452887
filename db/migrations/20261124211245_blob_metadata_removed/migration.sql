ALTER TABLE "blobs" ADD COLUMN "metadata_removed" boolean DEFAULT true NOT NULL;
--> statement-breakpoint
-- Files stored before PDFs and Office files were cleaned still carry their metadata: only images were stripped then.
UPDATE "blobs" SET "metadata_removed" = false
  WHERE "mime_type" IN ('application/pdf', 'application/msword', 'application/vnd.ms-excel', 'application/vnd.ms-powerpoint')
     OR "mime_type" LIKE 'application/vnd.openxmlformats-officedocument.%';
