// SPDX-License-Identifier: Apache-2.0
#include "core/session/selector_preview.h"

namespace drasim::session {

SelectorPreview evaluateSelectors(
    const std::vector<std::shared_ptr<const cel::Selector>>& selectors, const api::ObjectSet& objects)
{
    SelectorPreview out;
    out.compiled = true;
    for (const auto& slice : objects.resourceSlices) {
        for (const auto& device : slice.devices) {
            cel::DeviceView view { slice.driver, &device.attributes, &device.capacity,
                device.allowMultipleAllocations.value_or(false) };
            DeviceVerdict v { slice.driver, slice.pool.name, device.name, slice.nodeName.value_or(""),
                DeviceMatch::Match, 0, {} };
            for (size_t i = 0; i < selectors.size(); ++i) {
                cel::EvalResult r = selectors[i]->evaluate(view);
                if (r.outcome == cel::Outcome::True)
                    continue;
                v.selector = i;
                v.match = r.outcome == cel::Outcome::False ? DeviceMatch::NoMatch : DeviceMatch::Error;
                if (v.match == DeviceMatch::Error)
                    v.error = r.error;
                break; // the scheduler stops at the first selector that is not true
            }
            ++(v.match == DeviceMatch::Match          ? out.matched
                    : v.match == DeviceMatch::NoMatch ? out.unmatched
                                                      : out.errors);
            out.devices.push_back(std::move(v));
        }
    }
    return out;
}

SelectorPreview previewSelector(std::string_view expression, const api::ObjectSet& objects)
{
    cel::CompileError error;
    auto selector = cel::Selector::compile(expression, &error);
    if (!selector) {
        SelectorPreview out;
        out.compileError = error;
        return out;
    }
    return evaluateSelectors({ selector }, objects);
}

} // namespace drasim::session
