// SPDX-License-Identifier: Apache-2.0
#include "core/allocator/selector_cache.h"

namespace drasim::allocator {

std::shared_ptr<const cel::Selector> SelectorCache::compile(
    const std::string& expression, cel::CompileError* error)
{
    if (auto it = m_compiled.find(expression); it != m_compiled.end())
        return it->second;
    if (auto it = m_compileErrors.find(expression); it != m_compileErrors.end()) {
        if (error)
            *error = it->second;
        return nullptr;
    }
    cel::CompileError err;
    auto sel = cel::Selector::compile(expression, &err);
    if (!sel) {
        m_compileErrors.emplace(expression, err);
        if (error)
            *error = err;
        return nullptr;
    }
    m_compiled.emplace(expression, sel);
    return sel;
}

uint32_t SelectorCache::setFor(
    const api::DeviceClass& cls, const std::vector<api::DeviceSelector>& requestSelectors)
{
    std::string key = cls.meta.name;
    for (const auto& s : requestSelectors) {
        key.push_back('\x1f');
        key += s.expression;
    }
    if (auto it = m_setIds.find(key); it != m_setIds.end())
        return it->second;
    Set s;
    s.className = cls.meta.name;
    auto add = [&](const std::vector<api::DeviceSelector>& list, bool fromClass, auto& into) {
        for (size_t i = 0; i < list.size(); ++i) {
            cel::CompileError err;
            auto sel = compile(list[i].expression, &err);
            if (!sel && s.compileFailures.empty())
                s.compileFailures.push_back(SelectorFailure { fromClass, i, true, err.message });
            into.push_back(sel);
        }
    };
    add(cls.selectors, true, s.classSelectors);
    add(requestSelectors, false, s.requestSelectors);
    uint32_t id = uint32_t(m_sets.size());
    m_sets.push_back(std::move(s));
    m_setIds.emplace(std::move(key), id);
    return id;
}

Verdict SelectorCache::evaluate(Set& s, const DeviceEntry& e)
{
    if (e.instance >= s.verdicts.size())
        s.verdicts.resize(std::max<size_t>(e.instance + 1, s.verdicts.size() * 2), Verdict::Unknown);
    cel::DeviceView view;
    view.driver = e.slice->driver;
    view.attributes = &e.device->attributes;
    view.capacity = &e.device->capacity;
    view.allowMultipleAllocations = e.multi;
    Verdict v = Verdict::True;
    auto run = [&](const std::vector<std::shared_ptr<const cel::Selector>>& list, bool fromClass) {
        for (size_t i = 0; i < list.size() && v == Verdict::True; ++i) {
            if (!list[i]) {
                // Reached a selector that does not compile: the whole attempt fails with it.
                s.errors[e.instance] = s.compileFailures.front();
                v = Verdict::Error;
                return;
            }
            auto r = list[i]->evaluate(view);
            if (r.outcome == cel::Outcome::False) {
                v = fromClass ? Verdict::ClassFalse : Verdict::RequestFalse;
            } else if (r.outcome == cel::Outcome::Error) {
                s.errors[e.instance] = SelectorFailure { fromClass, i, false, r.error };
                v = Verdict::Error;
            }
        }
    };
    run(s.classSelectors, true);
    if (v == Verdict::True)
        run(s.requestSelectors, false);
    s.verdicts[e.instance] = v;
    return v;
}

const SelectorFailure& SelectorCache::failure(uint32_t set, DeviceInstance instance) const
{
    static const SelectorFailure none;
    const auto& s = m_sets[set];
    auto it = s.errors.find(instance);
    return it == s.errors.end() ? none : it->second;
}

bool SelectorCache::anyError(uint32_t set, const std::vector<DeviceEntry>& devices)
{
    auto& s = m_sets[set];
    if (s.anyError >= 0)
        return s.anyError == 1;
    bool any = !s.compileFailures.empty();
    for (const auto& e : devices)
        any = (verdict(set, e) == Verdict::Error) || any;
    m_sets[set].anyError = any ? 1 : 0;
    return any;
}

void SelectorCache::forget(const std::vector<DeviceInstance>& instances)
{
    if (instances.empty())
        return;
    for (auto& s : m_sets) {
        for (DeviceInstance i : instances) {
            if (i < s.verdicts.size())
                s.verdicts[i] = Verdict::Unknown;
            s.errors.erase(i);
        }
        s.anyError = -1;
    }
}

void SelectorCache::clearVerdicts()
{
    for (auto& s : m_sets) {
        s.verdicts.clear();
        s.errors.clear();
        s.anyError = -1;
    }
}

} // namespace drasim::allocator
