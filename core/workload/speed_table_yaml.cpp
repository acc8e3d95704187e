// SPDX-License-Identifier: Apache-2.0
#include "core/workload/speed_table_yaml.h"

#include <cmath>
#include <set>

#include "core/topology/model_speeds.h"

namespace drasim::workload {

using yamlio::YamlNode;

namespace {

/// models: {MODEL: SPEED, ...}; each speed a finite number above 0. Paths name the model as
/// Kubernetes names map entries: `speed.models[NVIDIA H200]`.
void modelsFrom(const YamlNode& node, const std::string& field, SpeedTable& t, std::set<std::string>& named,
    yamlio::DocReader& c)
{
    if (!c.isMap(node, field))
        return;
    for (const auto& [k, v] : node.entries) {
        const std::string model = k.asString().value_or(k.scalar);
        named.insert(model);
        const std::string path = field + "[" + model + "]";
        auto speed = c.number(v, path);
        if (!speed)
            continue;
        if (!(*speed > 0) || !std::isfinite(*speed)) {
            c.error(v, path, "Invalid value: " + v.scalar + ": must be a finite number greater than 0");
            continue;
        }
        t.speeds[model] = *speed;
    }
}

} // namespace

std::shared_ptr<const SpeedTable> speedTableFrom(
    const YamlNode& node, const std::string& field, yamlio::DocReader& c)
{
    const size_t errorsBefore = c.errors();
    auto table = std::make_shared<SpeedTable>();
    table->speeds = topology::catalogModelSpeeds();
    const YamlNode* reference = nullptr;
    bool referenceRead = false; ///< a string, to look up
    std::set<std::string> named; ///< the models `models:` names, valid speed or not
    const bool map = c.fields(node, field, "reference, attribute, models",
        [&](const std::string& key, const YamlNode& v, const std::string& sub) {
            if (key == "reference") {
                reference = &v;
                if (auto s = c.string(v, sub)) {
                    table->reference = *s;
                    referenceRead = true;
                }
            } else if (key == "attribute") {
                if (auto s = c.string(v, sub); s && s->empty())
                    c.error(v, sub, "Invalid value: \"\": must name a device attribute");
                else if (s)
                    table->attribute = *s;
            } else if (key == "models") {
                modelsFrom(v, sub, *table, named, c);
            } else {
                return false;
            }
            return true;
        });
    if (!map)
        return nullptr;
    const std::string referencePath = yamlio::joinPath(field, "reference");
    if (!reference)
        c.required(node, referencePath);
    else if (referenceRead && !table->speeds.count(table->reference) && !named.count(table->reference))
        c.invalid(*reference, referencePath, table->reference,
            "unknown model: neither the catalog nor " + yamlio::joinPath(field, "models")
                + " gives its speed");
    if (c.errors() != errorsBefore)
        return nullptr;
    return table;
}

} // namespace drasim::workload
