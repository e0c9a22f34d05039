-- A number that changes with every change of the configuration a submission reads (LocalQueues, ClusterQueues and
-- their quotas, cohorts and theirs, priority classes, namespaces), whoever makes it: a statement trigger on each of
-- those tables draws a new one from a sequence. A submission looks it up once and answers its reads of the
-- configuration from what it read since that number (in memory), instead of a statement for each read. A sequence
-- is not rolled back, so a number seen once never stands for another configuration, even after a rollback.
CREATE SEQUENCE configuration_generation_seq;

CREATE TABLE configuration_generation (
    id    boolean PRIMARY KEY DEFAULT true CHECK (id),
    value bigint  NOT NULL
);
INSERT INTO configuration_generation (value) VALUES (nextval('configuration_generation_seq'));

-- An upsert, so the row comes back if it is ever emptied (a reader then sees no generation, which differs from
-- every one it kept).
CREATE FUNCTION next_configuration_generation() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO configuration_generation (value) VALUES (nextval('configuration_generation_seq'))
    ON CONFLICT (id) DO UPDATE SET value = EXCLUDED.value;
    RETURN NULL;
END $$;

CREATE TRIGGER local_queue_generation AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON local_queue
    FOR EACH STATEMENT EXECUTE FUNCTION next_configuration_generation();
CREATE TRIGGER cluster_queue_generation AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON cluster_queue
    FOR EACH STATEMENT EXECUTE FUNCTION next_configuration_generation();
CREATE TRIGGER cluster_queue_quota_generation AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON cluster_queue_quota
    FOR EACH STATEMENT EXECUTE FUNCTION next_configuration_generation();
CREATE TRIGGER cohort_generation AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON cohort
    FOR EACH STATEMENT EXECUTE FUNCTION next_configuration_generation();
CREATE TRIGGER cohort_quota_generation AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON cohort_quota
    FOR EACH STATEMENT EXECUTE FUNCTION next_configuration_generation();
CREATE TRIGGER priority_class_generation AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON priority_class
    FOR EACH STATEMENT EXECUTE FUNCTION next_configuration_generation();
CREATE TRIGGER namespace_generation AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON namespace
    FOR EACH STATEMENT EXECUTE FUNCTION next_configuration_generation();
