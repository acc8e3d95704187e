// SPDX-License-Identifier: Apache-2.0
// Job spec.podFailurePolicy and spec.podReplacementPolicy with the API server's validation
// (pkg/apis/batch/validation/validation.go: validatePodFailurePolicy, validatePodReplacementPolicy).
#include <algorithm>

#include "core/yamlio/names.h"
#include "core/yamlio/object_readers.h"

namespace drasim::yamlio {

namespace {

constexpr size_t kMaxRules = 20; // maxPodFailurePolicyRules
constexpr size_t kMaxPatterns = 20; // maxPodFailurePolicyOnPodConditionsPatterns
constexpr size_t kMaxExitCodes = 255; // maxPodFailurePolicyOnExitCodesValues

void readExitCodeValues(
    Reader& r, uint32_t v, const Path& p, const std::string& op, std::vector<int32_t>& out)
{
    r.items(v, p, [&](size_t, uint32_t item, const Path& ip) {
        int32_t code = 0;
        if (!r.getInt32(item, ip, code))
            return;
        const std::string text = std::to_string(code);
        if (op == "In" && code == 0)
            r.invalid(item, ip, text, "must not be 0 for the In operator");
        if (std::find(out.begin(), out.end(), code) != out.end())
            r.duplicate(item, ip, text);
        out.push_back(code);
    });
    if (r.isNull(v) || out.empty())
        r.error(v, p, "Invalid value: []: at least one value is required");
    else if (out.size() > kMaxExitCodes)
        r.tooMany(v, p, out.size(), kMaxExitCodes);
    else if (!std::is_sorted(out.begin(), out.end())) {
        std::string list;
        for (int32_t code : out)
            list += (list.empty() ? "" : ", ") + std::to_string(code);
        r.error(v, p, "Invalid value: [" + list + "]: must be ordered");
    }
}

void readOnExitCodes(Reader& r, uint32_t v, const Path& p, api::PodFailurePolicyOnExitCodes& out)
{
    uint32_t valuesNode = v;
    bool sawValues = false;
    r.fields(v, p, [&](std::string_view k, uint32_t, uint32_t fv) {
        const Path fp = p.field(k);
        if (k == "containerName")
            r.getString(fv, fp, out.containerName.emplace());
        else if (k == "operator")
            r.getString(fv, fp, out.operator_);
        else if (k == "values")
            valuesNode = fv, sawValues = true;
        else
            return false;
        return true;
    });
    const Path op = p.field("operator");
    if (out.operator_.empty())
        r.error(v, op, "Required value: valid values: [\"In\" \"NotIn\"]");
    else if (out.operator_ != "In" && out.operator_ != "NotIn")
        r.unsupported(v, op, out.operator_, { "In", "NotIn" });
    if (sawValues)
        readExitCodeValues(r, valuesNode, p.field("values"), out.operator_, out.values);
    else
        r.error(v, p.field("values"), "Invalid value: []: at least one value is required");
    // Simulated pods have no containers that exit with a code: the rule never matches.
    r.warning(v, p, "not simulated: simulated pods have no container exit codes, the rule never matches");
}

void readOnPodConditions(
    Reader& r, uint32_t v, const Path& p, std::vector<api::PodFailurePolicyOnPodConditionsPattern>& out)
{
    r.items(v, p, [&](size_t, uint32_t item, const Path& ip) {
        api::PodFailurePolicyOnPodConditionsPattern& pattern = out.emplace_back();
        bool sawType = false;
        r.fields(item, ip, [&](std::string_view k, uint32_t, uint32_t fv) {
            const Path fp = ip.field(k);
            if (k == "type") {
                sawType = true;
                if (r.getString(fv, fp, pattern.type)) {
                    const std::string why = checkLabelKey(pattern.type);
                    if (!why.empty())
                        r.invalid(fv, fp, pattern.type, why);
                }
            } else if (k == "status") {
                if (r.getString(fv, fp, pattern.status) && pattern.status != "True"
                    && pattern.status != "False" && pattern.status != "Unknown")
                    r.unsupported(fv, fp, pattern.status, { "False", "True", "Unknown" });
            } else
                return false;
            return true;
        });
        if (!sawType && !r.isNull(item))
            r.required(item, ip.field("type"));
    });
    if (out.size() > kMaxPatterns)
        r.tooMany(v, p, out.size(), kMaxPatterns);
}

void checkAction(Reader& r, uint32_t v, const Path& p, const std::string& action)
{
    // FailIndex is valid only with backoffLimitPerIndex, which the simulation does not model.
    if (action == "FailIndex")
        r.invalid(v, p, action, "requires the backoffLimitPerIndex to be set");
    else if (!action.empty() && action != "Count" && action != "FailJob" && action != "Ignore")
        r.unsupported(v, p, action, { "Count", "FailIndex", "FailJob", "Ignore" });
}

void readRule(Reader& r, uint32_t v, const Path& p, api::PodFailurePolicyRule& out)
{
    uint32_t actionNode = v;
    r.fields(v, p, [&](std::string_view k, uint32_t, uint32_t fv) {
        const Path fp = p.field(k);
        if (k == "action") {
            actionNode = fv;
            if (r.getString(fv, fp, out.action))
                checkAction(r, fv, fp, out.action);
        } else if (k == "onExitCodes" && !r.isNull(fv))
            readOnExitCodes(r, fv, fp, out.onExitCodes.emplace());
        else if (k == "onPodConditions")
            readOnPodConditions(r, fv, fp, out.onPodConditions);
        else if (k != "onExitCodes")
            return false;
        return true;
    });
    if (out.action.empty())
        r.error(actionNode, p.field("action"),
            "Required value: valid values: [\"Count\" \"FailIndex\" \"FailJob\" \"Ignore\"]");
    if (out.onExitCodes && !out.onPodConditions.empty())
        r.error(v, p, "Invalid value: specifying both OnExitCodes and OnPodConditions is not supported");
    if (!out.onExitCodes && out.onPodConditions.empty())
        r.error(v, p, "Invalid value: specifying one of OnExitCodes and OnPodConditions is required");
}

} // namespace

void readPodFailurePolicy(Reader& r, uint32_t v, const Path& p, api::PodFailurePolicy& out)
{
    const Path rp = p.field("rules");
    r.fields(v, p, [&](std::string_view k, uint32_t, uint32_t fv) {
        if (k != "rules")
            return false;
        r.items(fv, rp,
            [&](size_t, uint32_t item, const Path& ip) { readRule(r, item, ip, out.rules.emplace_back()); });
        if (out.rules.size() > kMaxRules)
            r.tooMany(fv, rp, out.rules.size(), kMaxRules);
        return true;
    });
}

void checkPodReplacementPolicy(Reader& r, uint32_t v, const Path& p, const api::PodController& job)
{
    const std::string& policy = job.podReplacementPolicy;
    if (policy.empty())
        return;
    if (job.podFailurePolicy) {
        // With a podFailurePolicy only Failed is allowed.
        if (policy != "Failed")
            r.unsupported(v, p, policy, { "Failed" });
    } else if (policy != "Failed" && policy != "TerminatingOrFailed") {
        r.unsupported(v, p, policy, { "Failed", "TerminatingOrFailed" });
    }
}

} // namespace drasim::yamlio
