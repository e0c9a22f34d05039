package dev.platform.api.manifest;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Kubernetes resource quantity ({@code 32}, {@code 500m}, {@code 3Gi}, {@code 1e3}) held exactly:
 * the text as written and its value as a {@link BigDecimal}. No floating point anywhere.
 * <p>
 * Bounded as Kubernetes bounds it (apimachinery {@code pkg/api/resource}): a value finer than
 * {@code 1n} is rounded up to {@code 1n}, and Kubernetes' arithmetic is 64-bit. The platform
 * computes in thousandths, so it takes Kubernetes' {@code MaxMilliValue} as its largest quantity
 * ({@value #MAX_TEXT} units, whose milli-value still fits in 64 bits) and refuses larger ones
 * rather than cap them silently, with the text's length and exponent bounded before any
 * arithmetic: {@code 9e999999} costs nothing to refuse.
 */
public final class Quantity implements Comparable<Quantity> {

    private static final Pattern GRAMMAR = Pattern.compile(
            "^([+-]?)([0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?[0-9]+)?$");

    /** Kubernetes' MaxMilliValue, (2^63 - 1) / 1000: the largest quantity whose thousandths fit in a long. */
    public static final String MAX_TEXT = "9223372036854775";
    public static final BigDecimal MAX = new BigDecimal(MAX_TEXT);
    /** Longer than any quantity within {@link #MAX} written at nano precision needs. */
    static final int MAX_LENGTH = 64;
    /** Beyond this exponent a non-zero quantity is above {@link #MAX} or below 1n, whatever its digits. */
    private static final int EXPONENT_BOUND = MAX_LENGTH + 20;
    private static final int NANO_SCALE = 9;

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
        if (text.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("'" + text.substring(0, 20) + "...' has " + text.length()
                    + " characters; a quantity has at most " + MAX_LENGTH);
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
        BigDecimal value = suffix == null ? number : scaled(text, number, suffix);
        if (value.abs().compareTo(MAX) > 0) {
            throw tooLarge(text);
        }
        return new Quantity(text, roundedToNano(value));
    }

    private static BigDecimal scaled(String text, BigDecimal number, String suffix) {
        boolean exponentSuffix = suffix.length() > 1 && (suffix.charAt(0) == 'e' || suffix.charAt(0) == 'E');
        if (!exponentSuffix) {
            return number.multiply(multiplier(suffix));
        }
        long exponent;
        try {
            exponent = Long.parseLong(suffix.substring(1));
        } catch (NumberFormatException beyondLong) {
            exponent = suffix.charAt(1) == '-' ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        if (number.signum() == 0) {
            return BigDecimal.ZERO;
        }
        if (exponent > EXPONENT_BOUND) {
            throw tooLarge(text);
        }
        if (exponent < -EXPONENT_BOUND) {
            // below 1n, which Kubernetes rounds up to
            return BigDecimal.ONE.scaleByPowerOfTen(-NANO_SCALE).multiply(BigDecimal.valueOf(number.signum()));
        }
        return number.scaleByPowerOfTen((int) exponent);
    }

    /** Kubernetes rounds a non-zero value up (away from zero) to the nano: 0.1n is 1n. */
    private static BigDecimal roundedToNano(BigDecimal value) {
        BigDecimal rounded = value.scale() > NANO_SCALE ? value.setScale(NANO_SCALE, RoundingMode.UP) : value;
        return rounded.signum() == 0 ? BigDecimal.ZERO : rounded.stripTrailingZeros();
    }

    private static IllegalArgumentException tooLarge(String text) {
        return new IllegalArgumentException("'" + text + "' is larger than " + MAX_TEXT
                + ", the largest quantity accepted (Kubernetes' MaxMilliValue: its value in thousandths must fit"
                + " in 64 bits)");
    }

    public static Quantity of(long units) {
        return new Quantity(Long.toString(units), BigDecimal.valueOf(units));
    }

    /** The sum, written as a plain decimal number ({@code 1Gi + 512Mi} is {@code 1610612736}). */
    public Quantity plus(Quantity other) {
        BigDecimal sum = value.add(other.value).stripTrailingZeros();
        return new Quantity(sum.toPlainString(), sum);
    }

    /** Whether {@code count} times this quantity is still within {@link #MAX}. */
    public boolean timesFits(long count) {
        return value.abs().multiply(BigDecimal.valueOf(count)).compareTo(MAX) <= 0;
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
            default -> throw new IllegalArgumentException("unknown suffix " + suffix);
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
        return value.movePointRight(3).setScale(0, RoundingMode.CEILING).longValueExact();
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
