// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/workload/rng.h"
#include "core/workload/workload_spec.h"

namespace drasim::workload {

/// Draws durations (seconds) from a validated DurationSpec. Stateless apart from the Rng the
/// caller passes, so one sampler can serve many job types.
class DurationSampler
{
public:
    explicit DurationSampler(DurationSpec spec)
        : m_spec(std::move(spec))
    { }
    double sample(Rng& rng) const;
    const DurationSpec& spec() const { return m_spec; }

private:
    DurationSpec m_spec;
};

} // namespace drasim::workload

namespace drasim::workload {

/// The annotation that gives a manifest object its run time.
inline constexpr const char* kDurationAnnotation = "drasim.dev/duration";
/// Optional submission offset of a manifest object submitted once (relative to arrival.start).
inline constexpr const char* kArrivalAnnotation = "drasim.dev/arrival";

/// Parses the compact form used in annotations and CSV cells: a time ("2h", "forever") or
/// "exponential(30m)", "lognormal(20m, 0.8)" (median, sigma), "uniform(10m, 1h)".
std::optional<DurationSpec> parseDurationShorthand(std::string_view text, std::string* error = nullptr);

/// Checks a DurationSpec built elsewhere (YAML): positive means, sigma >= 0, low <= high, ...
/// Returns an empty string when valid, else what is wrong.
std::string validateDurationSpec(const DurationSpec& spec);

} // namespace drasim::workload
