package dev.platform.scheduler.web;

import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

import java.util.LinkedHashMap;
import java.util.Map;

/** Objects as {@code kubectl get -o yaml} writes them: one block-style YAML document per object. */
public final class KubernetesYaml {

    /** The media type of the single-object reads that answer with a Kubernetes object. */
    public static final String MEDIA_TYPE = "application/yaml";

    private KubernetesYaml() {
    }

    /** One object as a YAML document; no line is folded, so long values read back as written. */
    public static String yaml(Map<String, Object> object) {
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        options.setWidth(Integer.MAX_VALUE);
        return new Yaml(options).dump(object);
    }

    /** An object's top level; {@code spec} and {@code status} are left out when null. */
    public static Map<String, Object> object(String apiVersion, String kind, Map<String, Object> metadata,
                                             Map<String, Object> spec, Map<String, Object> status) {
        Map<String, Object> object = new LinkedHashMap<>();
        object.put("apiVersion", apiVersion);
        object.put("kind", kind);
        object.put("metadata", metadata);
        if (spec != null) {
            object.put("spec", spec);
        }
        if (status != null) {
            object.put("status", status);
        }
        return object;
    }
}
