package dev.platform.scheduler.kubernetes.registry;

import dev.platform.api.identity.Caller;
import dev.platform.api.manifest.FieldValidation;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Where a kind's objects come from and go to: a mapping onto the platform's services, as kube-apiserver's
 * {@code rest.Storage} is for a resource. Objects are JSON trees in the kind's storage version, with {@code metadata}
 * (name, namespace, uid, creationTimestamp, resourceVersion, labels, annotations), {@code spec} and {@code status}.
 * A verb the kind does not serve is never called.
 */
public interface ObjectStore {

    Optional<Map<String, Object>> get(String namespace, String name, Caller caller);

    /**
     * A read-only subresource of an object other than {@code status} (Kueue's visibility API's
     * {@code pendingworkloads}), with the request's query parameters; empty when the object does not exist.
     */
    default Optional<Map<String, Object>> subresource(String namespace, String name, String subresource,
                                                      Map<String, String> parameters, Caller caller) {
        return Optional.empty();
    }

    /** One page in key order (namespace, then name) from after {@code query.after()}. */
    Page list(ListQuery query, Caller caller);

    /** Stores a new object; {@link WriteRefusal#alreadyExists} when its name is taken. */
    default Written create(Map<String, Object> object, WriteOptions options, Caller caller) {
        throw new UnsupportedOperationException();
    }

    /** Replaces the object of that name; {@link WriteRefusal#notFound} when there is none. */
    default Written update(Map<String, Object> object, WriteOptions options, Caller caller) {
        throw new UnsupportedOperationException();
    }

    /** Deletes it and answers the object as it was last; {@link WriteRefusal#notFound} when there is none. */
    default Map<String, Object> delete(String namespace, String name, WriteOptions options, Caller caller) {
        throw new UnsupportedOperationException();
    }

    /**
     * The changes of this kind's objects after {@code revision}, in revision order, the caller's to read: at most
     * {@code limit} read from the log, and the revision up to which the log was read (past changes of other kinds).
     */
    default Changes changesAfter(long revision, int limit, Caller caller) {
        return new Changes(List.of(), revision, false);
    }

    /**
     * The revision of a kind whose resourceVersions count in a sequence of its own (Events: their timeline entries'
     * ids) rather than in the platform's change log: its lists carry it and its watches continue from it, reading
     * only {@link #changesAfter}. Empty for the kinds of the change log.
     */
    default OptionalLong ownRevision() {
        return OptionalLong.empty();
    }

    /**
     * Whether a caller reads exactly this kind's objects in the namespaces it may read ({@code Caller#mayRead}), so
     * that the changes read once for every caller serve each watch, filtered by namespace.
     */
    default boolean visibleByNamespace() {
        return false;
    }

    /** One watch event's worth: ADDED, MODIFIED or DELETED, the object at (or after) {@code revision}. */
    record Change(long revision, String type, Map<String, Object> object) {
    }

    /** Changes read from the log, the revision the log was read up to, and whether the read stopped at its limit. */
    record Changes(List<Change> changes, long readUpTo, boolean more) {
    }

    /**
     * What the list asks: a namespace (null: all), selectors, a page size (0: all) and where the page starts;
     * {@code fields} holds the field selector's equalities, for a store that can look them up rather than filter.
     * {@code columnsOnly}: the list is answered as a Table without its objects ({@code kubectl get}), so only the
     * metadata and what the kind's printer columns and selectors read are needed; a store may leave out the rest.
     */
    record ListQuery(String namespace, Selector selector, int limit, Key after, Map<String, String> fields,
                     boolean columnsOnly) {
    }

    /** A key of an object: namespace ("" for cluster-scoped) and name. */
    record Key(String namespace, String name) implements Comparable<Key> {
        @Override
        public int compareTo(Key other) {
            int byNamespace = namespace.compareTo(other.namespace);
            return byNamespace != 0 ? byNamespace : name.compareTo(other.name);
        }
    }

    /** Which objects a list or watch wants, by labels and fields. */
    interface Selector {
        boolean matches(Map<String, Object> object);

        Selector EVERYTHING = object -> true;
    }

    /**
     * A page of objects; {@code more} when objects past the last one remain. {@code continueAfter} is the key the
     * next page starts after, for a store whose objects are not named by their keys (a Kueue Workload is named after
     * its JobSet, whose row is the key); null: the last item's namespace and name.
     */
    record Page(List<Map<String, Object>> items, boolean more, Key continueAfter) {

        public Page(List<Map<String, Object>> items, boolean more) {
            this(items, more, null);
        }
    }

    /** How a write is made: as a dry run, with which field validation, by which field manager. */
    record WriteOptions(boolean dryRun, FieldValidation fieldValidation, String fieldManager) {
    }

    /** The object as stored after a write, and what the write warns of (Warning headers). */
    record Written(Map<String, Object> object, List<String> warnings) {
    }

    /** Refusals a store throws in the domain's terms; the handlers word them as kube-apiserver does. */
    final class WriteRefusal extends RuntimeException {
        public enum Reason { ALREADY_EXISTS, NOT_FOUND }

        private final Reason reason;

        private WriteRefusal(Reason reason) {
            super(reason.name(), null, false, false);
            this.reason = reason;
        }

        public Reason reason() {
            return reason;
        }

        public static WriteRefusal alreadyExists() {
            return new WriteRefusal(Reason.ALREADY_EXISTS);
        }

        public static WriteRefusal notFound() {
            return new WriteRefusal(Reason.NOT_FOUND);
        }
    }
}
