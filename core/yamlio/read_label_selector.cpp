// SPDX-License-Identifier: Apache-2.0
// metav1.LabelSelector, validated as ValidateLabelSelector does
// (apimachinery/pkg/apis/meta/v1/validation/validation.go): PodDisruptionBudgets, pod affinity
// terms and topology spread constraints share it.
#include "core/yamlio/names.h"
#include "core/yamlio/object_readers.h"

namespace drasim::yamlio {

namespace {

void readSelectorRequirement(Reader& r, uint32_t item, const Path& ip, api::LabelSelectorRequirement& req)
{
    uint32_t opNode = item, keyNode = item, valuesNode = item;
    r.fields(item, ip, [&](std::string_view k, uint32_t, uint32_t v) {
        if (k == "key")
            keyNode = v, r.getString(v, ip.field(k), req.key);
        else if (k == "operator")
            opNode = v, r.getString(v, ip.field(k), req.op);
        else if (k == "values")
            valuesNode = v, r.getStringList(v, ip.field(k), req.values);
        else
            return false;
        return true;
    });
    // ValidateLabelSelectorRequirement, in its order: operator and values, key, each value.
    if (req.op == "In" || req.op == "NotIn") {
        if (req.values.empty())
            r.error(opNode, ip.field("values"),
                "Required value: must be specified when `operator` is 'In' or 'NotIn'");
    } else if (req.op == "Exists" || req.op == "DoesNotExist") {
        if (!req.values.empty())
            r.error(valuesNode, ip.field("values"),
                "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'");
    } else {
        r.invalid(opNode, ip.field("operator"), req.op, "not a valid selector operator");
    }
    if (auto e = checkLabelKey(req.key); !e.empty())
        r.invalid(keyNode, ip.field("key"), req.key, e);
    const Path vp = ip.field("values");
    for (size_t i = 0; i < req.values.size(); ++i)
        if (auto e = checkLabelValue(req.values[i]); !e.empty())
            r.invalid(r.listItem(valuesNode, i), vp.at(i), req.values[i], e);
}

} // namespace

void readLabelSelector(Reader& r, uint32_t v, const Path& p, std::optional<api::LabelSelector>& out)
{
    if (r.isNull(v))
        return;
    api::LabelSelector sel;
    r.fields(v, p, [&](std::string_view k, uint32_t, uint32_t fv) {
        const Path fp = p.field(k);
        if (k == "matchLabels") {
            r.getStringMap(fv, fp, sel.matchLabels);
            for (const auto& [key, value] : sel.matchLabels) {
                if (auto e = checkLabelKey(key); !e.empty())
                    r.invalid(fv, fp, key, e);
                if (auto e = checkLabelValue(value); !e.empty())
                    r.invalid(fv, fp, value, e);
            }
        } else if (k == "matchExpressions") {
            r.items(fv, fp, [&](size_t, uint32_t item, const Path& ip) {
                api::LabelSelectorRequirement req;
                readSelectorRequirement(r, item, ip, req);
                sel.matchExpressions.push_back(std::move(req));
            });
        } else {
            return false;
        }
        return true;
    });
    out = std::move(sel);
}

} // namespace drasim::yamlio
