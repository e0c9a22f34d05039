package dev.platform.scheduler.kubernetes.registry;

/** Kubernetes' verbs, as discovery lists them and authorization names them. */
public enum Verb {
    create, delete, deletecollection, get, list, patch, update, watch;

    /** The verbs of a resource that is read and written like any object. */
    public static final java.util.Set<Verb> READ_WRITE = java.util.EnumSet.of(create, delete, get, list, patch, update,
            watch);
    /** The verbs of a resource that is only read. */
    public static final java.util.Set<Verb> READ_ONLY = java.util.EnumSet.of(get, list, watch);
}
