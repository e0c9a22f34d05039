-- Server-side apply's field ownership: per object (by kind, namespace, name and the uid it has now), which field
-- manager set which fields, by Apply or by Update, as metadata.managedFields says it (FieldsV1). Written in the
-- request that changes the object; an entry of an earlier object of the same name (another uid) is replaced.
CREATE TABLE managed_fields (
    kind      text        NOT NULL,
    namespace text        NOT NULL DEFAULT '',
    name      text        NOT NULL,
    uid       text        NOT NULL,
    entries   jsonb       NOT NULL,
    PRIMARY KEY (kind, namespace, name)
);
