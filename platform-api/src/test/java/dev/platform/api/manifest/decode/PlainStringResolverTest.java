package dev.platform.api.manifest.decode;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.nodes.NodeId;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.resolver.Resolver;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** The resolver's shortcut gives every scalar the type SnakeYAML's own resolver gives it. */
class PlainStringResolverTest {

    private static final List<String> SCALARS = List.of("", " ", "apiVersion", "kind", "JobSet", "metadata", "name",
            "null", "Null", "NULL", "~", "nodes", "n", "N", "y", "Y", "yes", "Yes", "no", "NO", "on", "On", "off",
            "OFF", "true", "True", "TRUE", "false", "False", "t", "f", "tpu-v5-lite-podslice", "0", "1", "-1", "+1",
            "0.5", ".5", "1e3", "1_000", "0x1F", "0o17", "0b101", ".inf", "-.inf", ".NaN", "NaN", "2024-05-01",
            "2024-05-01T10:00:00Z", "<<", "<", "$HOME", "${VALUE}", "@attr", "`tick`", "%directive", "ñame", "名前",
            "\u0000", "a: b", "?", "-", "--", "2x2", "v1", "kueue.x-k8s.io/queue-name", "100m", "16Gi", "1.5Gi");

    @Test
    void everyScalarResolvesAsTheStandardResolverResolvesIt() {
        Resolver standard = new Resolver();
        Resolver shortcut = new ManifestBodyReader.PlainStringResolver();
        List<String> compared = new ArrayList<>(SCALARS);
        for (char c = 0; c < 256; c++) {
            compared.add(String.valueOf(c));
            compared.add(c + "rest");
        }
        for (String scalar : compared) {
            for (boolean implicit : new boolean[]{true, false}) {
                assertThat(shortcut.resolve(NodeId.scalar, scalar, implicit)).as("%s (implicit %s)", scalar, implicit)
                        .isEqualTo(standard.resolve(NodeId.scalar, scalar, implicit));
            }
        }
        assertThat(shortcut.resolve(NodeId.scalar, "apiVersion", true)).isEqualTo(Tag.STR);
        assertThat(shortcut.resolve(NodeId.scalar, "true", true)).isEqualTo(Tag.BOOL);
        assertThat(shortcut.resolve(NodeId.scalar, "", true)).isEqualTo(Tag.NULL);
    }

    @Test
    void aResolverForAnyFirstCharacterBeyondTheEmptyStringsTurnsTheShortcutOff() {
        Resolver shortcut = new ManifestBodyReader.PlainStringResolver();
        Tag secret = new Tag("tag:example.com,2026:secret");

        shortcut.addImplicitResolver(secret, Pattern.compile("^secret-.*$"), null);

        assertThat(shortcut.resolve(NodeId.scalar, "secret-value", true)).isEqualTo(secret);
        assertThat(shortcut.resolve(NodeId.scalar, "apiVersion", true)).isEqualTo(Tag.STR);
    }
}
