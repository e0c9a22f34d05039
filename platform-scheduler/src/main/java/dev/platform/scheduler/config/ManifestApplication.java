package dev.platform.scheduler.config;

import dev.platform.api.manifest.DecodedDocument;
import dev.platform.api.manifest.WorkloadManifest;
import dev.platform.scheduler.workload.WorkloadService;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.interceptor.TransactionAspectSupport;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code POST /api/v1/manifests} as one transaction: configuration first (so a LocalQueue in the
 * same request is there for the workloads), then workloads; all or nothing. A dry run goes
 * through the same steps and is rolled back.
 */
@Service
public class ManifestApplication {

    private final ConfigurationService configuration;
    private final WorkloadService workloads;

    public ManifestApplication(ConfigurationService configuration, WorkloadService workloads) {
        this.configuration = configuration;
        this.workloads = workloads;
    }

    @Transactional
    public List<ApplyResult> apply(List<DecodedDocument> documents, boolean dryRun, String actor) {
        List<DecodedDocument> config = documents.stream().filter(d -> d.manifest().kind().isConfiguration()).toList();
        List<DecodedDocument> submitted = documents.stream().filter(d -> !d.manifest().kind().isConfiguration()).toList();
        List<ApplyResult> configResults = configuration.apply(config, dryRun, actor);
        List<ApplyResult> workloadResults = new ArrayList<>();
        for (DecodedDocument document : submitted) {
            WorkloadManifest manifest = (WorkloadManifest) document.manifest();
            WorkloadService.Applied applied = workloads.apply(document, actor);
            List<String> warnings = new ArrayList<>(document.warnings());
            warnings.addAll(applied.warnings());
            workloadResults.add(new ApplyResult(manifest.kind().manifestName(), manifest.namespace(), manifest.name(),
                    applied.action(), warnings));
        }
        if (dryRun) {
            TransactionAspectSupport.currentTransactionStatus().setRollbackOnly();
        }
        return inRequestOrder(documents, configResults, workloadResults);
    }

    private static List<ApplyResult> inRequestOrder(List<DecodedDocument> documents, List<ApplyResult> config,
                                                    List<ApplyResult> workloads) {
        List<ApplyResult> results = new ArrayList<>(documents.size());
        int c = 0;
        int w = 0;
        for (DecodedDocument document : documents) {
            results.add(document.manifest().kind().isConfiguration() ? config.get(c++) : workloads.get(w++));
        }
        return results;
    }
}
