// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace drasim {

/// Kubernetes resource.Quantity: an exact decimal number with the format it was written in
/// (DecimalSI "1k", BinarySI "1Ki", DecimalExponent "1e3"). Comparison and arithmetic are exact;
/// toString() prints the canonical form Kubernetes would serialise.
class Quantity
{
public:
    enum class Format { DecimalSI, BinarySI, DecimalExponent };

    Quantity() = default;

    /// Parses the Kubernetes quantity grammar. On failure returns nullopt and, if error is
    /// given, a message such as "quantities must match the regular expression ...".
    static std::optional<Quantity> parse(std::string_view text, std::string* error = nullptr);
    static Quantity fromInt(int64_t value, Format format = Format::DecimalSI);
    static Quantity fromMilli(int64_t milli, Format format = Format::DecimalSI);

    /// Canonical string ("1Gi", "500m", "1500M", "1e3" ...).
    std::string toString() const;

    int compare(const Quantity& other) const; ///< -1, 0, 1
    bool operator==(const Quantity& o) const { return compare(o) == 0; }
    bool operator<(const Quantity& o) const { return compare(o) < 0; }
    bool operator<=(const Quantity& o) const { return compare(o) <= 0; }
    bool operator>(const Quantity& o) const { return compare(o) > 0; }
    bool operator>=(const Quantity& o) const { return compare(o) >= 0; }

    Quantity add(const Quantity& o) const;
    Quantity sub(const Quantity& o) const;
    /// The exact decimal product (inf.Dec's Mul, as apimachinery multiplies through AsDec), in the
    /// receiver's format; saturates like the other arithmetic when the mantissa would overflow.
    Quantity multiplied(const Quantity& by) const;

    int sign() const;
    bool isZero() const { return sign() == 0; }
    /// True when the value has no fractional part.
    bool isInteger() const;
    /// The value rounded up to an integer (Kubernetes Value()), saturating at int64 limits.
    int64_t value() const;
    /// The value in thousandths rounded up (Kubernetes MilliValue()), saturating.
    int64_t milliValue() const;
    /// Exact integer value if it fits int64 and has no fraction.
    std::optional<int64_t> asInt64() const;
    /// apimachinery's Quantity.AsInt64(): depends on the internal representation, not only on the
    /// value (see cel.md §8): succeeds only for the (int64, scale >= 0) form, so "2000m", "1.0" and
    /// "1.5Gi" fail although integral. CEL's isInteger()/asInteger() use this.
    std::optional<int64_t> kubernetesAsInt64() const;
    /// The quantity as a real cluster hands it to the scheduler: serialised (toString) and parsed
    /// again, so "1.5Gi" becomes the int64-form "1536Mi". The loader applies this to stored objects.
    Quantity asStored() const;
    Quantity negated() const;
    double asApproximateDouble() const;
    Format format() const { return m_format; }

private:
    friend struct QuantityAccess;
    // value = m_mantissa * 10^m_exponent, kept normalised (mantissa not divisible by 10 unless 0).
    // The exponent is 64-bit because "1e2147483647" is a valid quantity.
    __int128 m_mantissa = 0;
    int64_t m_exponent = 0;
    Format m_format = Format::DecimalSI;
    // apimachinery keeps either an int64 amount with a base-10 scale or an arbitrary decimal; only
    // kubernetesAsInt64() and add/sub observe the difference, so we track just the form and scale.
    bool m_decimalForm = false;
    int64_t m_int64Scale = 0;
    // apimachinery keeps the original text when it is already canonical-looking and prints it
    // verbatim ("+1k" stays "+1k", "1E3" stays "1E3"); cleared by arithmetic.
    std::string m_text;
};

} // namespace drasim
