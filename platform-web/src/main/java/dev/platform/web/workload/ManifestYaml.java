package dev.platform.web.workload;

import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.representer.Representer;

/** A stored JSON manifest written back as the block-style YAML a Kubernetes user reads. */
final class ManifestYaml {

    private ManifestYaml() {
    }

    /** JSON is YAML's flow style, so SnakeYAML's safe loader reads it; the dumper writes block style. */
    static String fromJson(String json) {
        if (json == null) {
            return "";
        }
        Object tree = new Yaml(new SafeConstructor(new LoaderOptions())).load(json);
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        options.setIndent(2);
        options.setIndicatorIndent(0);
        options.setWidth(120);
        return new Yaml(new SafeConstructor(new LoaderOptions()), new Representer(options), options).dump(tree);
    }
}
