package dev.platform.scheduler.config;

import dev.platform.api.manifest.AdmissionCheckManifest;
import dev.platform.api.manifest.Kind;
import dev.platform.api.manifest.ProvisioningRequestConfigManifest;
import dev.platform.scheduler.core.admissioncheck.RetryStrategy;
import org.springframework.stereotype.Service;

import java.util.List;
import java.util.Optional;

/**
 * The stored AdmissionCheck and ProvisioningRequestConfig objects, read by name: what serves them (the REST list,
 * the Kubernetes API) and what needs a check's controller or its provisioning parameters.
 */
@Service
public class AdmissionCheckConfigs {

    private final ConfigStore config;

    public AdmissionCheckConfigs(ConfigStore config) {
        this.config = config;
    }

    public List<AdmissionCheckManifest> admissionChecks() {
        return config.list(Kind.ADMISSION_CHECK, AdmissionCheckManifest.class);
    }

    public Optional<AdmissionCheckManifest> admissionCheck(String name) {
        return config.find(Kind.ADMISSION_CHECK, ObjectKey.cluster(name), AdmissionCheckManifest.class);
    }

    public List<ProvisioningRequestConfigManifest> provisioningRequestConfigs() {
        return config.list(Kind.PROVISIONING_REQUEST_CONFIG, ProvisioningRequestConfigManifest.class);
    }

    public Optional<ProvisioningRequestConfigManifest> provisioningRequestConfig(String name) {
        return config.find(Kind.PROVISIONING_REQUEST_CONFIG, ObjectKey.cluster(name),
                ProvisioningRequestConfigManifest.class);
    }

    /**
     * The ProvisioningRequestConfig of a {@code kueue.x-k8s.io/provisioning-request} check; empty when the check is
     * another controller's, or its config does not exist (Kueue: the check is inactive and stays Pending).
     */
    public Optional<ProvisioningRequestConfigManifest> provisioningFor(String check) {
        return admissionCheck(check).filter(AdmissionCheckManifest::provisioning)
                .flatMap(a -> a.parameters() == null ? Optional.empty()
                        : provisioningRequestConfig(a.parameters().name()));
    }

    /** A config's retryStrategy in the core's terms. */
    public static RetryStrategy retryStrategy(ProvisioningRequestConfigManifest config) {
        ProvisioningRequestConfigManifest.RetryStrategy r = config.retryStrategy();
        return new RetryStrategy(r.backoffLimitCount(), r.backoffBaseSeconds(), r.backoffMaxSeconds());
    }
}
