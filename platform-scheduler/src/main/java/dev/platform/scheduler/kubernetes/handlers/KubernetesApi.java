package dev.platform.scheduler.kubernetes.handlers;

import dev.platform.scheduler.kubernetes.registry.KindRegistry;
import dev.platform.scheduler.kubernetes.storage.ManagedFieldsStore;
import tools.jackson.databind.json.JsonMapper;

import java.time.Clock;

/** The verb handlers over one registry, as kube-apiserver's installer wires its handlers to its storage. */
public final class KubernetesApi {

    private final Responses responses;
    private final DiscoveryHandler discovery;
    private final OpenApiHandler openApi;
    private final GetHandler get;
    private final ListHandler list;
    private final CreateHandler create;
    private final UpdateHandler update;
    private final PatchHandler patch;
    private final DeleteHandler delete;
    private final WatchHandler watch;

    public KubernetesApi(KindRegistry registry, JsonMapper json, Clock clock, Revisions revisions, ChangeLog changes,
                         ManagedFieldsStore managedFields, String prefix) {
        FieldManagers managers = new FieldManagers(managedFields, clock);
        this.responses = new Responses(json);
        Resources resources = new Resources(registry);
        Tables tables = new Tables(clock);
        Bodies bodies = new Bodies(json);
        this.discovery = new DiscoveryHandler(registry, responses);
        this.openApi = new OpenApiHandler(registry, responses, json, prefix);
        this.get = new GetHandler(resources, responses, tables, managers);
        this.list = new ListHandler(resources, responses, tables, revisions);
        this.create = new CreateHandler(resources, responses, bodies, managers);
        this.update = new UpdateHandler(resources, responses, bodies, managers);
        this.patch = new PatchHandler(resources, responses, bodies, managers);
        this.delete = new DeleteHandler(resources, responses, managers);
        this.watch = new WatchHandler(resources, responses, tables, revisions, changes, json);
    }

    public Responses responses() {
        return responses;
    }

    public DiscoveryHandler discovery() {
        return discovery;
    }

    public OpenApiHandler openApi() {
        return openApi;
    }

    public GetHandler get() {
        return get;
    }

    public ListHandler list() {
        return list;
    }

    public CreateHandler create() {
        return create;
    }

    public UpdateHandler update() {
        return update;
    }

    public PatchHandler patch() {
        return patch;
    }

    public DeleteHandler delete() {
        return delete;
    }

    public WatchHandler watch() {
        return watch;
    }
}
