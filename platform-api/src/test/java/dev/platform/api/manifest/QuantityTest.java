package dev.platform.api.manifest;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** Kubernetes' bounds on quantities: rounded up to the nano, nothing above MaxMilliValue, cheap to refuse. */
class QuantityTest {

    @ParameterizedTest
    @CsvSource({
            "9223372036854775, 9223372036854775",
            "9223372036854775e0, 9223372036854775",
            "8Pi, 9007199254740992",
            "1T, 1000000000000",
            "1e3, 1000",
            "0.1n, 0.000000001",
            "1e-100, 0.000000001",
            "1e-99999999999999999999, 0.000000001",
            "0e99999999999999999999, 0",
            "1.0000000001, 1.000000001",
            "-0.5n, -0.000000001"})
    void withinKubernetesBoundsAndRoundedUpToTheNano(String text, BigDecimal value) {
        assertThat(Quantity.parse(text).value()).isEqualByComparingTo(value);
        assertThat(Quantity.parse(text).toString()).isEqualTo(text);
    }

    @ParameterizedTest
    @ValueSource(strings = {"9223372036854776", "9999999999999999999999999999999999999999e999999", "1.5e2147483647",
            "1e99999999999999999999", "8Ei", "10P", "1E", "-9223372036854776", "9223372036854775.5"})
    void aboveMaxMilliValueIsRefused(String text) {
        assertThatIllegalArgumentException().isThrownBy(() -> Quantity.parse(text))
                .withMessageContaining("is larger than 9223372036854775, the largest quantity accepted");
    }

    @ParameterizedTest
    @ValueSource(ints = {65, 1_000_000})
    void aLongTextIsRefusedBeforeAnyArithmetic(int length) {
        String text = "1" + "0".repeat(length - 1);
        assertThatIllegalArgumentException().isThrownBy(() -> Quantity.parse(text))
                .withMessageContaining("characters; a quantity has at most 64");
    }

    @ParameterizedTest
    @CsvSource({"9223372036854775, 1, true", "9223372036854775, 2, false", "1Gi, 8589934, true",
            "1Gi, 8589935, false"})
    void timesFits(String text, long count, boolean fits) {
        assertThat(Quantity.parse(text).timesFits(count)).isEqualTo(fits);
    }
}
