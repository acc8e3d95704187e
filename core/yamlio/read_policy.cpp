// SPDX-License-Identifier: Apache-2.0
// policy/v1 PodDisruptionBudget, validated as ValidatePodDisruptionBudgetSpec does
// (pkg/apis/policy/validation/validation.go); its selector is read_label_selector.cpp's.
#include "core/yamlio/names.h"
#include "core/yamlio/object_readers.h"

namespace drasim::yamlio {

namespace {

// validation.IsValidPercent: RegexError(percentErrMsg, "[0-9]+%", "1%", "93%").
constexpr const char* kPdbPercentMessage
    = "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', "
      "regex used for validation is '[0-9]+%')";

bool pdbIsPercent(const std::string& s)
{
    if (s.size() < 2 || s.back() != '%')
        return false;
    for (size_t i = 0; i + 1 < s.size(); ++i)
        if (s[i] < '0' || s[i] > '9')
            return false;
    return true;
}

/// IsNotMoreThan100Percent of a valid percentage (digits then '%').
bool pdbPercentOver100(const std::string& s)
{
    int64_t value = 0;
    for (size_t i = 0; i + 1 < s.size() && value <= 100; ++i)
        value = value * 10 + (s[i] - '0');
    return value > 100;
}

/// minAvailable / maxUnavailable: an int32 or a string, then ValidatePositiveIntOrPercent and
/// IsNotMoreThan100Percent.
void readPdbIntOrPercent(Reader& r, uint32_t v, const Path& p, std::optional<api::IntOrString>& out)
{
    if (r.isNull(v))
        return;
    api::IntOrString value;
    if (r.nodeKind(v) == YamlNode::Kind::Scalar && r.scalarType(v) == ScalarType::String) {
        value = api::IntOrString::ofString(std::string(r.text(v)));
        if (!pdbIsPercent(value.stringValue))
            r.invalid(v, p, value.stringValue, kPdbPercentMessage);
        else if (pdbPercentOver100(value.stringValue))
            r.invalid(v, p, value.stringValue, "must not be greater than 100%");
    } else {
        if (!r.getInt32(v, p, value.intValue))
            return;
        if (value.intValue < 0)
            r.error(v, p,
                "Invalid value: " + std::to_string(value.intValue) + ": must be greater than or equal to 0");
    }
    out = std::move(value);
}

void readPdbSpec(Reader& r, uint32_t v, const Path& p, api::PodDisruptionBudget& out)
{
    r.fields(v, p, [&](std::string_view k, uint32_t, uint32_t fv) {
        const Path fp = p.field(k);
        if (k == "minAvailable")
            readPdbIntOrPercent(r, fv, fp, out.minAvailable);
        else if (k == "maxUnavailable")
            readPdbIntOrPercent(r, fv, fp, out.maxUnavailable);
        else if (k == "selector")
            readLabelSelector(r, fv, fp, out.selector);
        else if (k == "unhealthyPodEvictionPolicy") {
            if (r.getString(fv, fp, out.unhealthyPodEvictionPolicy)
                && out.unhealthyPodEvictionPolicy != "AlwaysAllow"
                && out.unhealthyPodEvictionPolicy != "IfHealthyBudget")
                r.unsupported(fv, fp, out.unhealthyPodEvictionPolicy, { "AlwaysAllow", "IfHealthyBudget" });
        } else
            return false;
        return true;
    });
    // The message, without the Go dump of the whole spec the API server puts before it.
    if (out.minAvailable && out.maxUnavailable)
        r.error(v, p, "Invalid value: minAvailable and maxUnavailable cannot be both set");
}

/// status as the disruption controller wrote it; conditions and observedGeneration are accepted
/// and dropped, as every status field the simulator does not use.
void readPdbStatus(Reader& r, uint32_t v, const Path& p, api::PodDisruptionBudget& out)
{
    if (r.nodeKind(v) != YamlNode::Kind::Map)
        return;
    api::PodDisruptionBudgetStatus st;
    const std::pair<const char*, int32_t*> counts[]
        = { { "disruptionsAllowed", &st.disruptionsAllowed }, { "currentHealthy", &st.currentHealthy },
              { "desiredHealthy", &st.desiredHealthy }, { "expectedPods", &st.expectedPods } };
    for (const auto& [key, into] : counts)
        if (uint32_t x = findKey(r.doc(), v, key))
            r.getInt32(x, p.field(key), *into);
    if (uint32_t x = findKey(r.doc(), v, "disruptedPods"))
        r.getStringMap(x, p.field("disruptedPods"), st.disruptedPods);
    out.status = std::move(st);
}

} // namespace

bool readPodDisruptionBudget(Reader& r, uint32_t root, api::PodDisruptionBudget& out)
{
    return readObject(
        r, root, true, out.meta, [&](uint32_t v, const Path& p) { readPdbSpec(r, v, p, out); },
        [&](uint32_t v, const Path& p) { readPdbStatus(r, v, p, out); }, [] {});
}

} // namespace drasim::yamlio
