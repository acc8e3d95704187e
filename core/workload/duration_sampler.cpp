// SPDX-License-Identifier: Apache-2.0
#include "core/workload/duration_sampler.h"

#include <algorithm>
#include <cmath>

#include "core/workload/time_text.h"

namespace drasim::workload {

double DurationSampler::sample(Rng& rng) const
{
    double v = 0;
    switch (m_spec.distribution) {
    case DurationSpec::Distribution::Fixed:
        v = m_spec.value;
        break;
    case DurationSpec::Distribution::Exponential:
        v = rng.exponential(m_spec.mean);
        break;
    case DurationSpec::Distribution::Lognormal:
        v = m_spec.median * std::exp(m_spec.sigma * rng.normal());
        break;
    case DurationSpec::Distribution::Uniform:
        v = m_spec.low + (m_spec.high - m_spec.low) * rng.uniform01();
        break;
    case DurationSpec::Distribution::Empirical:
        // One recorded value, uniformly: the sample's own distribution, no smoothing.
        if (m_spec.samples && !m_spec.samples->empty())
            v = (*m_spec.samples)[rng.below(m_spec.samples->size())];
        break;
    }
    if (m_spec.clampMin)
        v = std::max(v, *m_spec.clampMin);
    if (m_spec.clampMax)
        v = std::min(v, *m_spec.clampMax);
    return v;
}

} // namespace drasim::workload

namespace drasim::workload {

std::optional<DurationSpec> parseDurationShorthand(std::string_view text, std::string* error)
{
    auto fail = [&](std::string msg) -> std::optional<DurationSpec> {
        if (error)
            *error = std::move(msg);
        return std::nullopt;
    };
    text = trimBlanks(text);
    DurationSpec spec;
    const size_t open = text.find('(');
    if (open == std::string_view::npos) {
        std::string err;
        auto v = parseDurationSeconds(text, &err);
        if (!v)
            return fail(err);
        spec.value = *v;
        return spec;
    }
    if (text.back() != ')')
        return fail("invalid duration \"" + std::string(text) + "\": missing ')'");
    const std::string_view fn = trimBlanks(text.substr(0, open));
    std::vector<std::string_view> args;
    std::string_view inner = text.substr(open + 1, text.size() - open - 2);
    while (true) {
        const size_t comma = inner.find(',');
        args.push_back(trimBlanks(inner.substr(0, comma)));
        if (comma == std::string_view::npos)
            break;
        inner.remove_prefix(comma + 1);
    }
    auto time = [&](size_t i, double& out) {
        std::string err;
        auto v = parseDurationSeconds(args[i], &err);
        if (!v) {
            if (error)
                *error = err;
            return false;
        }
        out = *v;
        return true;
    };
    if (fn == "exponential") {
        if (args.size() != 1)
            return fail("exponential(mean) takes one argument");
        spec.distribution = DurationSpec::Distribution::Exponential;
        if (!time(0, spec.mean))
            return std::nullopt;
    } else if (fn == "lognormal") {
        if (args.size() != 2)
            return fail("lognormal(median, sigma) takes two arguments");
        spec.distribution = DurationSpec::Distribution::Lognormal;
        if (!time(0, spec.median))
            return std::nullopt;
        auto sigma = parseDurationSeconds(args[1]); // a plain non-negative number
        if (!sigma || args[1].find_first_not_of("0123456789.") != std::string_view::npos)
            return fail(
                "lognormal sigma must be a non-negative number, got \"" + std::string(args[1]) + "\"");
        spec.sigma = *sigma;
    } else if (fn == "uniform") {
        if (args.size() != 2)
            return fail("uniform(min, max) takes two arguments");
        spec.distribution = DurationSpec::Distribution::Uniform;
        if (!time(0, spec.low) || !time(1, spec.high))
            return std::nullopt;
    } else {
        return fail("unknown distribution \"" + std::string(fn)
            + "\"; expected a duration, exponential(mean), lognormal(median, sigma) or uniform(min, max)");
    }
    std::string problem = validateDurationSpec(spec);
    if (!problem.empty())
        return fail(problem);
    return spec;
}

std::string validateDurationSpec(const DurationSpec& spec)
{
    using D = DurationSpec::Distribution;
    switch (spec.distribution) {
    case D::Fixed:
        if (!(spec.value >= 0))
            return "duration must not be negative";
        break;
    case D::Exponential:
        if (!(spec.mean > 0) || std::isinf(spec.mean))
            return "exponential mean must be a positive finite time";
        break;
    case D::Lognormal:
        if (!(spec.median > 0) || std::isinf(spec.median))
            return "lognormal median must be a positive finite time";
        if (!(spec.sigma >= 0) || std::isinf(spec.sigma))
            return "lognormal sigma must be a non-negative number";
        break;
    case D::Uniform:
        if (!(spec.low >= 0) || !(spec.high >= spec.low) || std::isinf(spec.high))
            return "uniform needs 0 <= min <= max < forever";
        break;
    case D::Empirical:
        if (!spec.samples || spec.samples->empty())
            return "empirical distribution has no samples";
        break;
    }
    if (spec.clampMin && spec.clampMax && *spec.clampMin > *spec.clampMax)
        return "min clamp is above max clamp";
    return {};
}

} // namespace drasim::workload
