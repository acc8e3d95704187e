// SPDX-License-Identifier: Apache-2.0
#include "core/cel/derived_check.h"

#include "core/cel/cost.h"
#include "core/cel/derived_attribute.h"

namespace drasim::cel {

namespace {

constexpr size_t kMaxDerivedExpressionLength = 10 * 1024;

struct Walk
{
    const std::string& kind;
    const std::string& name;
    std::string_view messagePrefix;
    bool listTypes;
    Diagnostics& diags;
    double totalCost = 0;
    SourcePos first; ///< where the claim-wide budget error is reported

    void check(const api::DeviceRequestSpec& s, const std::string& path)
    {
        for (size_t i = 0; i < s.derivedAttributes.size(); ++i) {
            const auto& a = s.derivedAttributes[i];
            // Empty and too long expressions are the loader's to report; the API server does not
            // compile them either.
            if (a.expression.empty() || a.expression.size() > kMaxDerivedExpressionLength)
                continue;
            if (first.line == 0)
                first = a.pos;
            CompileError error;
            auto compiled = DerivedAttribute::compile(a.expression, listTypes, &error);
            if (compiled) {
                totalCost += compiled->estimatedCost();
                continue;
            }
            SourcePos pos = a.pos;
            if (pos.line > 0) {
                if (error.line <= 1)
                    pos.column += error.column - 1;
                else {
                    pos.line += error.line - 1;
                    pos.column = error.column;
                }
            }
            diags.error(pos, kind, name, path + ".derivedAttributes[" + std::to_string(i) + "].expression",
                std::string(messagePrefix) + error.message);
        }
    }
};

} // namespace

void checkDerivedAttributes(const api::ResourceClaimSpec& spec, const std::string& kind,
    const std::string& name, const std::string& prefix, std::string_view messagePrefix, bool listTypes,
    Diagnostics& diags)
{
    Walk w { kind, name, messagePrefix, listTypes, diags };
    for (size_t i = 0; i < spec.requests.size(); ++i) {
        const auto& r = spec.requests[i];
        const std::string base = prefix + ".devices.requests[" + std::to_string(i) + "]";
        if (r.exactly)
            w.check(*r.exactly, base + ".exactly");
        for (size_t j = 0; j < r.firstAvailable.size(); ++j)
            w.check(r.firstAvailable[j].spec, base + ".firstAvailable[" + std::to_string(j) + "]");
    }
    if (w.totalCost > kEstimatedCostLimit)
        diags.error(w.first, kind, name, prefix + ".devices",
            "Forbidden: too complex, total cost of derived attribute CEL expressions in the claim exceeds "
            "cost "
            "limit");
}

} // namespace drasim::cel
