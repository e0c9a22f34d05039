-- The priority classes (PriorityClass or WorkloadPriorityClass names) a team's workloads may name, set by an
-- Admin in the Team object: NULL lets them name any, an empty array none.
ALTER TABLE team ADD COLUMN allowed_priority_classes text[];
