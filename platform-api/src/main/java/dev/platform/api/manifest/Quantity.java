package dev.platform.api.manifest;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Kubernetes resource quantity ({@code 32}, {@code 500m}, {@code 3Gi}, {@code 1e3}) held exactly:
 * the text as written and its value as a {@link BigDecimal}. No floating point anywhere.
 */
public final class Quantity implements Comparable<Quantity> {

    private static final Pattern GRAMMAR = Pattern.compile(
            "^([+-]?)([0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?[0-9]+)?$");

    private final String text;
    private final BigDecimal value;

    private Quantity(String text, BigDecimal value) {
        this.text = text;
        this.value = value;
    }

    /**
     * Parses the Kubernetes quantity grammar.
     *
     * @throws IllegalArgumentException with a message fit for a user when the text is not a quantity
     */
    @JsonCreator
    public static Quantity parse(String text) {
        if (text == null || text.isEmpty()) {
            throw new IllegalArgumentException("quantity must not be empty");
        }
        Matcher m = GRAMMAR.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a valid quantity (expected e.g. 32, 500m, 3Gi)");
        }
        BigDecimal number = new BigDecimal(m.group(2).startsWith(".") ? "0" + m.group(2) : m.group(2));
        if ("-".equals(m.group(1))) {
            number = number.negate();
        }
        String suffix = m.group(3);
        BigDecimal value = suffix == null ? number : number.multiply(multiplier(suffix));
        return new Quantity(text, value.stripTrailingZeros());
    }

    public static Quantity of(long units) {
        return new Quantity(Long.toString(units), BigDecimal.valueOf(units));
    }

    /** The sum, written as a plain decimal number ({@code 1Gi + 512Mi} is {@code 1610612736}). */
    public Quantity plus(Quantity other) {
        BigDecimal sum = value.add(other.value).stripTrailingZeros();
        return new Quantity(sum.toPlainString(), sum);
    }

    private static BigDecimal multiplier(String suffix) {
        return switch (suffix) {
            case "Ki" -> new BigDecimal(BigInteger.TWO.pow(10));
            case "Mi" -> new BigDecimal(BigInteger.TWO.pow(20));
            case "Gi" -> new BigDecimal(BigInteger.TWO.pow(30));
            case "Ti" -> new BigDecimal(BigInteger.TWO.pow(40));
            case "Pi" -> new BigDecimal(BigInteger.TWO.pow(50));
            case "Ei" -> new BigDecimal(BigInteger.TWO.pow(60));
            case "n" -> BigDecimal.ONE.scaleByPowerOfTen(-9);
            case "u" -> BigDecimal.ONE.scaleByPowerOfTen(-6);
            case "m" -> BigDecimal.ONE.scaleByPowerOfTen(-3);
            case "k" -> BigDecimal.ONE.scaleByPowerOfTen(3);
            case "M" -> BigDecimal.ONE.scaleByPowerOfTen(6);
            case "G" -> BigDecimal.ONE.scaleByPowerOfTen(9);
            case "T" -> BigDecimal.ONE.scaleByPowerOfTen(12);
            case "P" -> BigDecimal.ONE.scaleByPowerOfTen(15);
            case "E" -> BigDecimal.ONE.scaleByPowerOfTen(18);
            default -> BigDecimal.ONE.scaleByPowerOfTen(Integer.parseInt(suffix.substring(1)));
        };
    }

    /** The text as the user wrote it. */
    @JsonValue
    @Override
    public String toString() {
        return text;
    }

    public BigDecimal value() {
        return value;
    }

    public boolean isNegative() {
        return value.signum() < 0;
    }

    /**
     * The value in thousandths, rounded up as Kubernetes does for sub-milli quantities; what the
     * scheduling core computes with.
     *
     * @throws ArithmeticException when it does not fit in a long
     */
    public long milliValue() {
        return value.movePointRight(3).setScale(0, java.math.RoundingMode.CEILING).longValueExact();
    }

    @Override
    public int compareTo(Quantity other) {
        return value.compareTo(other.value);
    }

    /** Two quantities are equal when their values are, whatever their spelling ({@code 1k} = {@code 1000}). */
    @Override
    public boolean equals(Object o) {
        return o instanceof Quantity q && value.compareTo(q.value) == 0;
    }

    @Override
    public int hashCode() {
        return Objects.hash(value.stripTrailingZeros());
    }
}
