// SPDX-License-Identifier: Apache-2.0
#include "core/common/quantity.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

// Behaviour follows apimachinery's resource.Quantity (ParseQuantity, CanonicalizeBytes, Add, Sub,
// AsInt64, ScaledValue). Deliberate deviations, all for inputs no real manifest contains:
//  * more than 38 significant digits (after rounding to 1n) are rejected instead of kept exactly;
//  * value()/milliValue() saturate at the int64 limits (apimachinery returns 0 or wraps) and round
//    negative fractions away from zero in both internal forms (apimachinery's decimal form differs);
//  * DecimalSI values beyond 999E print with an exponent ("1e24") where apimachinery prints the
//    bare mantissa and silently loses the magnitude;
//  * the exponent of "1e..." is truncated to int32 like apimachinery, but scale arithmetic does
//    not wrap around.

namespace drasim {

using i128 = __int128;
using u128 = unsigned __int128;

namespace {

constexpr const char* kErrFormatWrong
    = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
constexpr const char* kErrSuffix = "unable to parse quantity's suffix";
constexpr const char* kErrTooPrecise = "quantity has more than 38 significant digits";
constexpr int kMaxDigits = 38; // 10^38 < 2^127
constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();
constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();

u128 pow10u(int n)
{
    u128 r = 1;
    for (int i = 0; i < n; ++i)
        r *= 10;
    return r;
}

int digitCount(u128 v)
{
    int n = 1;
    while (v >= 10) {
        v /= 10;
        ++n;
    }
    return n;
}

u128 absU(i128 v)
{
    return v < 0 ? u128(0) - u128(v) : u128(v);
}

std::string toDigits(u128 v)
{
    if (v == 0)
        return "0";
    std::string s;
    while (v > 0) {
        s.push_back(char('0' + int(v % 10)));
        v /= 10;
    }
    std::reverse(s.begin(), s.end());
    return s;
}

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

// Multiplies v by 10^n if the result keeps at most kMaxDigits digits.
bool scaleUp(u128 v, int64_t n, u128& out)
{
    if (v == 0) {
        out = 0;
        return true;
    }
    if (n < 0 || n > kMaxDigits || digitCount(v) + n > kMaxDigits)
        return false;
    out = v * pow10u(int(n));
    return true;
}

struct Suffix
{
    int base = 10; // 10 or 2
    int32_t exponent = 0;
    Quantity::Format format = Quantity::Format::DecimalSI;
};

std::optional<Suffix> interpretSuffix(std::string_view s)
{
    using F = Quantity::Format;
    static const std::pair<std::string_view, int32_t> kDecimal[] = { { "n", -9 }, { "u", -6 }, { "m", -3 },
        { "", 0 }, { "k", 3 }, { "M", 6 }, { "G", 9 }, { "T", 12 }, { "P", 15 }, { "E", 18 } };
    static const std::pair<std::string_view, int32_t> kBinary[]
        = { { "Ki", 10 }, { "Mi", 20 }, { "Gi", 30 }, { "Ti", 40 }, { "Pi", 50 }, { "Ei", 60 } };
    for (const auto& [name, e] : kDecimal)
        if (s == name)
            return Suffix { 10, e, F::DecimalSI };
    for (const auto& [name, e] : kBinary)
        if (s == name)
            return Suffix { 2, e, F::BinarySI };
    if (s.size() > 1 && (s[0] == 'e' || s[0] == 'E')) {
        // strconv.ParseInt(s[1:], 10, 64): optional sign, digits, must fit int64.
        std::string_view t = s.substr(1);
        bool neg = false;
        if (!t.empty() && (t[0] == '+' || t[0] == '-')) {
            neg = t[0] == '-';
            t.remove_prefix(1);
        }
        if (t.empty())
            return std::nullopt;
        u128 v = 0;
        for (char c : t) {
            if (!isDigit(c))
                return std::nullopt;
            v = v * 10 + u128(c - '0');
            if (v > u128(kInt64Max) + 1)
                return std::nullopt;
        }
        if (!neg && v > u128(kInt64Max))
            return std::nullopt;
        int64_t parsed = neg ? int64_t(-i128(v)) : int64_t(v);
        // apimachinery converts with int32(parsed): keep that truncation.
        return Suffix { 10, static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(parsed))),
            F::DecimalExponent };
    }
    return std::nullopt;
}

} // namespace

// Internal access used by the free helpers below (keeps the header free of helper declarations).
struct QuantityAccess
{
    static Quantity make(
        i128 mantissa, int64_t exponent, Quantity::Format format, bool decimalForm, int64_t int64Scale)
    {
        Quantity q;
        while (mantissa != 0 && mantissa % 10 == 0) {
            mantissa /= 10;
            ++exponent;
        }
        if (mantissa == 0)
            exponent = 0;
        q.m_mantissa = mantissa;
        q.m_exponent = exponent;
        q.m_format = format;
        q.m_decimalForm = decimalForm;
        q.m_int64Scale = int64Scale;
        return q;
    }
    static i128 mantissa(const Quantity& q) { return q.m_mantissa; }
    static int64_t exponent(const Quantity& q) { return q.m_exponent; }
    static bool decimalForm(const Quantity& q) { return q.m_decimalForm; }
    static int64_t int64Scale(const Quantity& q) { return q.m_int64Scale; }
    static void setText(Quantity& q, std::string s) { q.m_text = std::move(s); }
};

namespace {

// The int64 amount apimachinery would hold for an int64-form quantity: value * 10^scale.
bool int64Amount(const Quantity& q, int64_t& value, int64_t& scale)
{
    scale = QuantityAccess::int64Scale(q);
    i128 m = QuantityAccess::mantissa(q);
    int64_t shift = QuantityAccess::exponent(q) - scale;
    if (m == 0) {
        value = 0;
        return true;
    }
    u128 mag;
    if (!scaleUp(absU(m), shift, mag) || mag > u128(kInt64Max))
        return false;
    value = m < 0 ? -int64_t(mag) : int64_t(mag);
    return true;
}

// apimachinery's int64Amount.Add: exact int64 arithmetic at the smaller scale, or failure.
bool int64AmountAdd(int64_t av, int64_t as, int64_t bv, int64_t bs, int64_t& rv, int64_t& rs)
{
    if (bv == 0) {
        rv = av;
        rs = as;
        return true;
    }
    if (av == 0) {
        rv = bv;
        rs = bs;
        return true;
    }
    auto scaled = [](int64_t v, int64_t n, int64_t& out) {
        i128 r = v;
        for (int64_t i = 0; i < n; ++i) {
            r *= 10;
            if (r > kInt64Max || r < kInt64Min)
                return false;
        }
        out = int64_t(r);
        return true;
    };
    int64_t a = av, b = bv;
    rs = std::min(as, bs);
    if (as > bs && !scaled(av, as - bs, a))
        return false;
    if (bs > as && !scaled(bv, bs - as, b))
        return false;
    i128 sum = i128(a) + b;
    if (sum > kInt64Max || sum < kInt64Min)
        return false;
    rv = int64_t(sum);
    return true;
}

// Exact magnitude comparison of m1*10^e1 and m2*10^e2 (both normalised, non-negative).
int compareMagnitude(u128 m1, int64_t e1, u128 m2, int64_t e2)
{
    if (m1 == 0 || m2 == 0)
        return m1 == m2 ? 0 : (m1 == 0 ? -1 : 1);
    int64_t o1 = digitCount(m1) + e1, o2 = digitCount(m2) + e2;
    if (o1 != o2)
        return o1 < o2 ? -1 : 1;
    // Same order of magnitude: compare digit strings, the shorter padded with zeros.
    std::string d1 = toDigits(m1), d2 = toDigits(m2);
    size_t n = std::max(d1.size(), d2.size());
    d1.resize(n, '0');
    d2.resize(n, '0');
    int c = d1.compare(d2);
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

} // namespace

namespace {

/// A quantity's text cut into its parts by apimachinery's parseQuantityString.
struct QuantityParts
{
    bool positive = true;
    std::string_view num, denom, suffix;
};

/// The scanner: sign, integer digits (leading zeros dropped), fraction digits and suffix; false
/// on a malformed text.
bool scanQuantity(std::string_view str, QuantityParts& parts)
{
    bool& positive = parts.positive;
    std::string_view& num = parts.num;
    std::string_view& denom = parts.denom;
    std::string_view& suffix = parts.suffix;
    size_t pos = 0;
    const size_t end = str.size();
    if (str[0] == '-') {
        positive = false;
        ++pos;
    } else if (str[0] == '+') {
        ++pos;
    }
    while (pos < end && str[pos] == '0')
        ++pos;
    bool scanned = false;
    if (pos >= end) {
        num = "0";
        scanned = true;
    } else {
        size_t i = pos;
        while (i < end && isDigit(str[i]))
            ++i;
        num = str.substr(pos, i - pos);
        pos = i;
        if (num.empty())
            num = "0";
        if (pos >= end)
            scanned = true;
        else if (str[pos] == '.') {
            ++pos;
            i = pos;
            while (i < end && isDigit(str[i]))
                ++i;
            denom = str.substr(pos, i - pos);
            pos = i;
            if (pos >= end)
                scanned = true;
        }
    }
    if (!scanned) {
        const size_t suffixStart = pos;
        while (pos < end && std::string_view("eEinumkKMGTP").find(str[pos]) != std::string_view::npos)
            ++pos;
        if (pos < end && (str[pos] == '-' || str[pos] == '+'))
            ++pos;
        while (pos < end && isDigit(str[pos]))
            ++pos;
        if (pos < end)
            return false;
        suffix = str.substr(suffixStart);
    }

    // cel.md §8 (the project's reference) has quantity("Mi") failing: a number part without any
    // digit ("Mi", "-", ".") is rejected, although the scanner alone would read it as zero.
    {
        bool hasDigit = false;
        for (char c : str.substr(0, str.size() - suffix.size()))
            hasDigit = hasDigit || isDigit(c);
        if (!hasDigit)
            return false;
    }
    return true;
}

/// Fast path: the value fits an int64 at a scale >= -9 (apimachinery's int64Amount form);
/// nullopt when it does not.
std::optional<Quantity> parseInt64Form(std::string_view str, const QuantityParts& parts, const Suffix& suffix)
{
    const std::string_view num = parts.num, denom = parts.denom;
    const Suffix* suf = &suffix;
    int64_t precision = 0;
    int64_t scale = 0;
    int64_t multiplier = 1;
    if (suf->format == Quantity::Format::BinarySI) {
        if (suf->exponent >= 0 && denom.empty()) {
            multiplier = int64_t(1) << suf->exponent;
            precision = 15 - int64_t(num.size()) - int64_t(float(suf->exponent) * 3 / 10) - 1;
        } else {
            precision = -1;
        }
    } else {
        scale = suf->exponent;
        precision = 18 - int64_t(num.size() + denom.size());
    }
    if (precision >= 0) {
        scale -= int64_t(denom.size());
        if (scale >= -9) {
            std::string shifted = std::string(num) + std::string(denom);
            int64_t value = 0;
            for (char c : shifted)
                value = value * 10 + (c - '0'); // at most 18 digits: cannot overflow
            i128 result = i128(value) * multiplier;
            if (result <= kInt64Max) {
                if (!parts.positive)
                    result = -result;
                Quantity q = QuantityAccess::make(result, scale, suf->format, false, scale);
                bool keepText = suf->format == Quantity::Format::BinarySI
                    ? (suf->exponent % 10 == 0 && (value & 0x07) != 0)
                    : (scale % 3 == 0 && !(shifted.size() >= 3 && shifted.ends_with("000"))
                        && shifted[0] != '0');
                if (keepText)
                    QuantityAccess::setText(q, std::string(str));
                return q;
            }
        }
    }

    return std::nullopt;
}

/// Slow path (apimachinery's inf.Dec form): exact decimal, magnitude rounded up to 1n, binary
/// values capped at 2^63-1. Sets `error` when the value has too many digits.
std::optional<Quantity> parseDecimalForm(const QuantityParts& parts, const Suffix& suffix, const char*& error)
{
    const std::string_view num = parts.num, denom = parts.denom;
    const bool positive = parts.positive;
    const Suffix* suf = &suffix;
    auto fail = [&](const char* message) -> std::optional<Quantity> {
        error = message;
        return std::nullopt;
    };
    std::vector<uint8_t> digits; // most significant first
    digits.reserve(num.size() + denom.size() + 20);
    for (char c : num)
        digits.push_back(uint8_t(c - '0'));
    for (char c : denom)
        digits.push_back(uint8_t(c - '0'));
    int64_t fraction = int64_t(denom.size());
    if (suf->base == 2) {
        for (int k = 0; k < suf->exponent; k += 10) {
            unsigned carry = 0;
            for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
                unsigned v = unsigned(*it) * 1024 + carry;
                *it = uint8_t(v % 10);
                carry = v / 10;
            }
            while (carry > 0) {
                digits.insert(digits.begin(), uint8_t(carry % 10));
                carry /= 10;
            }
        }
    } else {
        fraction -= suf->exponent;
    }
    // value = digits * 10^-fraction. Drop leading zeros; integer digits = size - fraction.
    size_t lead = 0;
    while (lead < digits.size() && digits[lead] == 0)
        ++lead;
    if (lead == digits.size())
        return QuantityAccess::make(0, 0, suf->format, true, 0);
    const int64_t sigCount = int64_t(digits.size() - lead);
    const int64_t intDigits = sigCount - fraction;
    // Keep digits down to 10^-9: the first keep significant digits, rounding up on any remainder.
    const int64_t keep = intDigits + 9;
    u128 nano = 0;
    if (keep <= 0) {
        nano = 1;
    } else {
        int64_t trailingZeros = 0;
        if (keep > sigCount) {
            trailingZeros = keep - sigCount;
        }
        // Significant digits of the result, excluding trailing zeros we can move to the exponent.
        int64_t used = std::min(keep, sigCount);
        size_t last = lead + size_t(used);
        while (last > lead && digits[last - 1] == 0) {
            --last;
            ++trailingZeros;
        }
        bool remainder = false;
        for (size_t i = lead + size_t(used); i < digits.size() && !remainder; ++i)
            remainder = digits[i] != 0;
        if (int64_t(last - lead) > kMaxDigits)
            return fail(kErrTooPrecise);
        for (size_t i = lead; i < last; ++i)
            nano = nano * 10 + digits[i];
        if (remainder) {
            // Round up at the 1n position: undo the trailing-zero shortcut first.
            u128 unit;
            if (!scaleUp(nano, trailingZeros, unit) || unit + 1 < unit)
                return fail(kErrTooPrecise);
            nano = unit + 1;
            trailingZeros = 0;
            if (digitCount(nano) > kMaxDigits)
                return fail(kErrTooPrecise);
        }
        Quantity::Format format = suf->format;
        i128 mantissa = i128(nano);
        int64_t exponent = trailingZeros - 9;
        if (format == Quantity::Format::BinarySI) {
            // Cap at 2^63-1 and show sub-unit binary values as DecimalSI.
            if (compareMagnitude(nano, exponent, u128(kInt64Max), 0) > 0) {
                mantissa = kInt64Max;
                exponent = 0;
            }
            if (compareMagnitude(u128(mantissa), exponent, 1, 0) < 0)
                format = Quantity::Format::DecimalSI;
        }
        return QuantityAccess::make(positive ? mantissa : -mantissa, exponent, format, true, 0);
    }
    // keep <= 0: a positive amount smaller than 1n rounds up to 1n.
    return QuantityAccess::make(positive ? i128(nano) : -i128(nano), -9,
        suf->format == Quantity::Format::BinarySI ? Quantity::Format::DecimalSI : suf->format, true, 0);
}

} // namespace

std::optional<Quantity> Quantity::parse(std::string_view str, std::string* error)
{
    auto fail = [&](const char* message) -> std::optional<Quantity> {
        if (error)
            *error = message;
        return std::nullopt;
    };
    if (str.empty())
        return fail(kErrFormatWrong);
    if (str == "0") {
        Quantity q;
        q.m_text = "0";
        return q;
    }
    QuantityParts parts;
    if (!scanQuantity(str, parts))
        return fail(kErrFormatWrong);
    const auto suf = interpretSuffix(parts.suffix);
    if (!suf)
        return fail(kErrSuffix);

    if (auto q = parseInt64Form(str, parts, *suf))
        return q;
    const char* why = nullptr;
    auto q = parseDecimalForm(parts, *suf, why);
    if (!q)
        return fail(why);
    return q;
}

Quantity Quantity::fromInt(int64_t value, Format format)
{
    return QuantityAccess::make(value, 0, format, false, 0);
}

Quantity Quantity::fromMilli(int64_t milli, Format format)
{
    return QuantityAccess::make(milli, -3, format, false, -3);
}

std::string Quantity::toString() const
{
    if (!m_text.empty())
        return m_text;
    if (m_mantissa == 0)
        return "0";
    const bool negative = m_mantissa < 0;
    const u128 mag = absU(m_mantissa);
    Format format = m_format;
    if (format == Format::BinarySI) {
        // |q| < 1024 or fractional values print as DecimalSI so nothing is rounded.
        if (compareMagnitude(mag, m_exponent, 1024, 0) < 0 || m_exponent < 0)
            format = Format::DecimalSI;
        else {
            u128 v;
            if (!scaleUp(mag, m_exponent, v)) {
                format = Format::DecimalSI; // beyond our integer range: print exactly in decimal
            } else {
                int times = 0;
                while (v >= 1024 && v % 1024 == 0) {
                    v /= 1024;
                    ++times;
                }
                static const char* kBin[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" };
                for (; times > 6; --times)
                    v *= 1024; // "Ei" is the largest binary suffix
                std::string out = negative ? "-" : "";
                out += toDigits(v);
                out += kBin[times];
                return out;
            }
        }
    }
    // Decimal: make the exponent a multiple of 3 (rounding down), then pick the suffix.
    std::string digits = toDigits(mag);
    int64_t exponent = m_exponent;
    int64_t rem = ((exponent % 3) + 3) % 3;
    digits.append(size_t(rem), '0');
    exponent -= rem;
    std::string out = negative ? "-" : "";
    out += digits;
    if (format == Format::DecimalExponent) {
        if (exponent != 0) {
            out += 'e';
            out += std::to_string(exponent);
        }
        return out;
    }
    switch (exponent) {
    case -9:
        return out + "n";
    case -6:
        return out + "u";
    case -3:
        return out + "m";
    case 0:
        return out;
    case 3:
        return out + "k";
    case 6:
        return out + "M";
    case 9:
        return out + "G";
    case 12:
        return out + "T";
    case 15:
        return out + "P";
    case 18:
        return out + "E";
    default: // see deviations at the top
        out += 'e';
        out += std::to_string(exponent);
        return out;
    }
}

int Quantity::compare(const Quantity& other) const
{
    const int s1 = sign(), s2 = other.sign();
    if (s1 != s2)
        return s1 < s2 ? -1 : 1;
    if (s1 == 0)
        return 0;
    if (m_exponent == other.m_exponent)
        return m_mantissa < other.m_mantissa ? -1 : (m_mantissa > other.m_mantissa ? 1 : 0);
    int c = compareMagnitude(absU(m_mantissa), m_exponent, absU(other.m_mantissa), other.m_exponent);
    return s1 > 0 ? c : -c;
}

Quantity Quantity::add(const Quantity& o) const
{
    // Format: the receiver's, unless the receiver is zero (apimachinery Add/Sub).
    const Format format = isZero() ? o.m_format : m_format;
    bool decimalForm = true;
    int64_t int64Scale = 0;
    if (!m_decimalForm && !o.m_decimalForm) {
        int64_t av, as, bv, bs, rv, rs;
        if (int64Amount(*this, av, as) && int64Amount(o, bv, bs) && int64AmountAdd(av, as, bv, bs, rv, rs)) {
            decimalForm = false;
            int64Scale = rs;
        }
    }
    if (o.m_mantissa == 0)
        return QuantityAccess::make(m_mantissa, m_exponent, format, decimalForm, int64Scale);
    if (m_mantissa == 0)
        return QuantityAccess::make(o.m_mantissa, o.m_exponent, format, decimalForm, int64Scale);
    const int64_t e = std::min(m_exponent, o.m_exponent);
    u128 a, b;
    if (!scaleUp(absU(m_mantissa), m_exponent - e, a) || !scaleUp(absU(o.m_mantissa), o.m_exponent - e, b)) {
        // More than 38 significant digits apart: the smaller operand is below our precision.
        const bool thisBigger
            = compareMagnitude(absU(m_mantissa), m_exponent, absU(o.m_mantissa), o.m_exponent) >= 0;
        const Quantity& big = thisBigger ? *this : o;
        return QuantityAccess::make(big.m_mantissa, big.m_exponent, format, true, 0);
    }
    i128 sa = m_mantissa < 0 ? -i128(a) : i128(a);
    i128 sb = o.m_mantissa < 0 ? -i128(b) : i128(b);
    return QuantityAccess::make(sa + sb, e, format, decimalForm, int64Scale);
}

Quantity Quantity::multiplied(const Quantity& by) const
{
    if (m_mantissa == 0 || by.m_mantissa == 0)
        return QuantityAccess::make(0, 0, m_format, true, 0);
    const bool negative = (m_mantissa < 0) != (by.m_mantissa < 0);
    u128 a = absU(m_mantissa), b = absU(by.m_mantissa);
    int64_t exponent = m_exponent + by.m_exponent;
    // Keep the product within 127 bits by dropping the smaller factor's last digits: past 38
    // significant digits a quantity is below our precision anyway (as in add).
    while (a > 1 && b > 1 && a > (u128(1) << 126) / b) {
        if (a >= b)
            a /= 10;
        else
            b /= 10;
        ++exponent;
    }
    const i128 product = i128(a * b);
    return QuantityAccess::make(negative ? -product : product, exponent, m_format, true, 0);
}

// apimachinery's Sub is Add of the negated amount with the same format rule.
Quantity Quantity::sub(const Quantity& o) const
{
    return add(o.negated());
}

Quantity Quantity::negated() const
{
    Quantity q = *this;
    q.m_mantissa = -q.m_mantissa;
    q.m_text.clear();
    return q;
}

int Quantity::sign() const
{
    return m_mantissa < 0 ? -1 : (m_mantissa > 0 ? 1 : 0);
}

bool Quantity::isInteger() const
{
    return m_mantissa == 0 || m_exponent >= 0;
}

namespace {

// Rounds mantissa*10^exponent to an integer away from zero (up in magnitude), saturating.
int64_t roundedAway(i128 mantissa, int64_t exponent)
{
    if (mantissa == 0)
        return 0;
    // Whole numbers in range, the usual case ("8Gi", "2"): nothing to scale or round.
    if (exponent == 0 && mantissa >= kInt64Min && mantissa <= kInt64Max)
        return int64_t(mantissa);
    const bool negative = mantissa < 0;
    u128 mag = absU(mantissa);
    u128 result;
    if (exponent >= 0) {
        if (!scaleUp(mag, exponent, result) || result > u128(kInt64Max) + (negative ? 1 : 0))
            return negative ? kInt64Min : kInt64Max;
    } else {
        int64_t shift = -exponent;
        if (shift >= digitCount(mag)) {
            result = 1;
        } else {
            u128 div = pow10u(int(shift));
            result = mag / div + (mag % div != 0 ? 1 : 0);
        }
        if (result > u128(kInt64Max) + (negative ? 1 : 0))
            return negative ? kInt64Min : kInt64Max;
    }
    return negative ? int64_t(-i128(result)) : int64_t(result);
}

} // namespace

int64_t Quantity::value() const
{
    return roundedAway(m_mantissa, m_exponent);
}

int64_t Quantity::milliValue() const
{
    return roundedAway(m_mantissa, m_exponent + 3);
}

std::optional<int64_t> Quantity::asInt64() const
{
    if (!isInteger())
        return std::nullopt;
    u128 v;
    if (!scaleUp(absU(m_mantissa), m_exponent, v))
        return std::nullopt;
    if (m_mantissa < 0) {
        if (v > u128(kInt64Max) + 1)
            return std::nullopt;
        return int64_t(-i128(v));
    }
    if (v > u128(kInt64Max))
        return std::nullopt;
    return int64_t(v);
}

std::optional<int64_t> Quantity::kubernetesAsInt64() const
{
    if (m_decimalForm || m_int64Scale < 0)
        return std::nullopt;
    return asInt64();
}

Quantity Quantity::asStored() const
{
    auto q = parse(toString());
    return q ? *q : *this;
}

double Quantity::asApproximateDouble() const
{
    return double(m_mantissa) * std::pow(10.0, double(m_exponent));
}

} // namespace drasim
