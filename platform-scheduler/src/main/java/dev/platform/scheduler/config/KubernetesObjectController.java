package dev.platform.scheduler.config;

import dev.platform.api.identity.Caller;
import dev.platform.scheduler.web.KubernetesYaml;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The single-object reads of configuration with {@code Accept: application/yaml}: the object as Kubernetes writes
 * it ({@link KubernetesObjects}), which {@code POST /api/v1/manifests} accepts back as {@code unchanged}. Found and
 * filtered exactly as the JSON reads of {@link ConfigurationController}, which answer every other Accept header.
 */
@RestController
@RequestMapping(path = "/api/v1", produces = KubernetesYaml.MEDIA_TYPE)
public class KubernetesObjectController {

    private final ConfigurationController json;

    public KubernetesObjectController(ConfigurationController json) {
        this.json = json;
    }

    @GetMapping("/resourceflavors/{name}")
    public String resourceFlavor(@PathVariable String name) {
        return KubernetesYaml.yaml(KubernetesObjects.resourceFlavor(json.resourceFlavor(name)));
    }

    @GetMapping("/cohorts/{name}")
    public String cohort(@PathVariable String name, Caller caller) {
        return KubernetesYaml.yaml(KubernetesObjects.cohort(json.cohort(name, caller)));
    }

    @GetMapping("/clusterqueues/{name}")
    public String clusterQueue(@PathVariable String name) {
        return KubernetesYaml.yaml(KubernetesObjects.clusterQueue(json.clusterQueue(name)));
    }

    @GetMapping("/namespaces/{namespace}/localqueues/{name}")
    public String localQueue(@PathVariable String namespace, @PathVariable String name) {
        return KubernetesYaml.yaml(KubernetesObjects.localQueue(json.localQueue(namespace, name)));
    }

    @GetMapping("/priorityclasses/{name}")
    public String priorityClass(@PathVariable String name) {
        return KubernetesYaml.yaml(KubernetesObjects.priorityClass(json.priorityClass(name)));
    }

    @GetMapping("/workloadpriorityclasses/{name}")
    public String workloadPriorityClass(@PathVariable String name) {
        return KubernetesYaml.yaml(KubernetesObjects.workloadPriorityClass(json.workloadPriorityClass(name)));
    }

    @GetMapping("/namespaces/{name}")
    public String namespace(@PathVariable String name) {
        return KubernetesYaml.yaml(KubernetesObjects.namespace(json.namespace(name)));
    }

    @GetMapping("/teams/{name}")
    public String team(@PathVariable String name) {
        return KubernetesYaml.yaml(KubernetesObjects.team(json.team(name)));
    }
}
