// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/api/core_v1.h"

namespace drasim::sim {

/// The queue group of each pod template for pods of one namespace and priority. While labels do
/// not matter and the template has no placement rules, those are all a pod's job adds to its
/// scheduling signature: most pods of a run come from a few shared templates (a trace's shapes
/// interleave), so each signature is computed once per template. Holding the template keeps its
/// address from being reused by another one.
class TemplateGroups
{
public:
    std::optional<uint32_t> find(
        const api::PodTemplateSpec* tmpl, const std::string& namespace_, int32_t priority) const
    {
        auto it = m_byTemplate.find(tmpl);
        if (it == m_byTemplate.end())
            return std::nullopt;
        for (const Entry& e : it->second)
            if (e.priority == priority && e.namespace_ == namespace_)
                return e.group;
        return std::nullopt;
    }

    void remember(const std::shared_ptr<const api::PodTemplateSpec>& tmpl, const std::string& namespace_,
        int32_t priority, uint32_t group)
    {
        m_byTemplate[tmpl.get()].push_back({ tmpl, namespace_, priority, group });
    }

private:
    struct Entry
    {
        std::shared_ptr<const api::PodTemplateSpec> tmpl;
        std::string namespace_;
        int32_t priority = 0;
        uint32_t group = 0;
    };
    std::unordered_map<const api::PodTemplateSpec*, std::vector<Entry>> m_byTemplate;
};

} // namespace drasim::sim
