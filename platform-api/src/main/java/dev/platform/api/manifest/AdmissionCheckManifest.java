package dev.platform.api.manifest;

/**
 * Kueue's AdmissionCheck: {@code controllerName} names who decides the check's state on each workload
 * ({@value #PROVISIONING_CONTROLLER}: the platform, through its agents' ProvisioningRequests; any other name: an
 * external controller, through the workload's admission check endpoint); {@code parameters} refers to the
 * controller's configuration object, null when none.
 */
public record AdmissionCheckManifest(String name, String controllerName, Parameters parameters)
        implements ConfigManifest {

    /** The controller name of Kueue's ProvisioningRequest admission check. */
    public static final String PROVISIONING_CONTROLLER = "kueue.x-k8s.io/provisioning-request";

    /** {@code spec.parameters}: the object configuring the check. */
    public record Parameters(String apiGroup, String kind, String name) {
    }

    @Override
    public Kind kind() {
        return Kind.ADMISSION_CHECK;
    }

    /** Whether the platform itself decides this check, with ProvisioningRequests. */
    public boolean provisioning() {
        return PROVISIONING_CONTROLLER.equals(controllerName);
    }
}
