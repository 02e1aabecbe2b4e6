package dev.parq.parse.decode;


/**
 * Correctly rounded conversion of a validated JSON number to double or float: exact small
 * decimals take the fast path (one exact integer and one correctly rounded multiplication or
 * division by an exact power of ten), everything else goes to the JDK's parser.
 */
final class Decimals {

    private static final double[] DOUBLE_POWERS = new double[23];
    private static final float[] FLOAT_POWERS = new float[11];

    static {
        double d = 1;
        for (int i = 0; i < DOUBLE_POWERS.length; i++) {
            DOUBLE_POWERS[i] = d;
            d *= 10;
        }
        float f = 1;
        for (int i = 0; i < FLOAT_POWERS.length; i++) {
            FLOAT_POWERS[i] = f;
            f *= 10;
        }
    }

    /** The last number split by {@link #split}: mantissa * 10^exponent. */
    private long mantissa;
    private int exponent;
    private boolean negative;

    double toDouble(byte[] buf, int from, int to) {
        if (split(buf, from, to, 15) && exponent >= -22 && exponent <= 22) {
            double m = mantissa;
            double v = exponent < 0 ? m / DOUBLE_POWERS[-exponent] : m * DOUBLE_POWERS[exponent];
            return negative ? -v : v;
        }
        return Double.parseDouble(ascii(buf, from, to));
    }

    float toFloat(byte[] buf, int from, int to) {
        if (split(buf, from, to, 7) && exponent >= -10 && exponent <= 10) {
            float m = mantissa;
            float v = exponent < 0 ? m / FLOAT_POWERS[-exponent] : m * FLOAT_POWERS[exponent];
            return negative ? -v : v;
        }
        return Float.parseFloat(ascii(buf, from, to));
    }

    /** Splits the number; false when it has more than maxDigits significant digits. */
    private boolean split(byte[] buf, int from, int to, int maxDigits) {
        int p = from;
        negative = buf[p] == '-';
        if (negative) {
            p++;
        }
        long m = 0;
        int digits = 0;
        int e10 = 0;
        boolean fraction = false;
        for (; p < to; p++) {
            byte c = buf[p];
            if (c == '.') {
                fraction = true;
                continue;
            }
            if (c == 'e' || c == 'E') {
                break;
            }
            int d = c - '0';
            if (m != 0 || d != 0) {
                if (++digits > maxDigits) {
                    return false;
                }
                m = m * 10 + d;
            }
            if (fraction) {
                e10--;
            }
        }
        if (p < to) {
            p++;
            boolean negativeExponent = buf[p] == '-';
            if (buf[p] == '-' || buf[p] == '+') {
                p++;
            }
            int e = 0;
            for (; p < to; p++) {
                e = e * 10 + buf[p] - '0';
                if (e > 1000) {
                    return false;
                }
            }
            e10 += negativeExponent ? -e : e;
        }
        mantissa = m;
        exponent = m == 0 ? 0 : e10;
        return true;
    }

    static String ascii(byte[] buf, int from, int to) {
        char[] chars = new char[to - from];
        for (int i = from; i < to; i++) {
            chars[i - from] = (char) buf[i];
        }
        return new String(chars);
    }
}
