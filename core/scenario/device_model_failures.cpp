// SPDX-License-Identifier: Apache-2.0
#include "core/scenario/device_model_failures.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "core/scenario/pool_failures_yaml.h"
#include "core/topology/device_models.h"
#include "core/yamlio/yaml_tree.h"

namespace drasim::scenario {

namespace {

using yamlio::DocReader;
using yamlio::YamlNode;

void parseByModel(
    DocReader& r, const YamlNode& n, const std::string& path, std::vector<DeviceModelFailures>& out)
{
    if (!r.isMap(n, path))
        return;
    std::set<std::string> seen;
    for (const auto& [k, v] : n.entries) {
        const std::string model = k.asString().value_or(k.scalar);
        const std::string sub = yamlio::joinPath(path, model);
        if (model.empty()) {
            r.error(k, sub, "Required value: a device model id such as H100-SXM5-80GB");
            continue;
        }
        if (!seen.insert(model).second) {
            r.duplicate(k, sub, model);
            continue;
        }
        DeviceModelFailures entry;
        entry.model = model;
        entry.pos = k.pos;
        entry.path = sub;
        parseFailureProcess(r, v, sub, entry.process);
        out.push_back(std::move(entry));
    }
}

std::string lowercase(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

/// What to say after "Not found": the id a product name or a differently cased id stands for,
/// or else every known id.
std::string notFoundHint(
    const std::string& written, const std::map<std::string, const topology::DeviceModel*>& known)
{
    for (const auto& [id, m] : known)
        if (m->productName == written)
            return "that is the product name of " + id + "; name a model by its catalog id: " + id;
    for (const auto& [id, m] : known)
        if (lowercase(id) == lowercase(written))
            return "did you mean " + id + "? (ids are case-sensitive)";
    std::string list;
    for (const auto& [id, m] : known)
        list += (list.empty() ? "" : ", ") + id;
    return "known models: " + list;
}

} // namespace

void parseFailuresByDeviceModel(
    DocReader& r, const YamlNode& n, const std::string& path, std::vector<DeviceModelFailures>& out)
{
    r.fields(
        n, path, "byDeviceModel", [&](const std::string& key, const YamlNode& v, const std::string& sub) {
            if (key != "byDeviceModel")
                return false;
            parseByModel(r, v, sub, out);
            return true;
        });
}

DataValue failuresByDeviceModelData(const std::vector<DeviceModelFailures>& entries)
{
    DataValue byModel = DataValue::map();
    for (const auto& e : entries)
        byModel.set(e.model, failureProcessData(e.process));
    DataValue m = DataValue::map();
    m.set("byDeviceModel", std::move(byModel));
    return m;
}

std::vector<DeviceModelFailures> withDeviceModelFailures(
    std::vector<DeviceModelFailures> base, const std::vector<DeviceModelFailures>& over)
{
    for (const auto& o : over) {
        auto same = std::find_if(
            base.begin(), base.end(), [&](const DeviceModelFailures& b) { return b.model == o.model; });
        if (same != base.end())
            *same = o;
        else
            base.push_back(o);
    }
    return base;
}

bool checkDeviceModelsKnown(const std::vector<DeviceModelFailures>& entries,
    const std::vector<const topology::NodeShape*>& shapes, Diagnostics& diags, const std::string& kind,
    const std::string& name)
{
    std::map<std::string, const topology::DeviceModel*> known;
    for (const auto& m : topology::builtinModels())
        known.emplace(m.id, &m);
    for (const topology::NodeShape* s : shapes)
        for (const auto& m : s->models)
            known.emplace(m.id, &m);
    bool ok = true;
    for (const auto& e : entries) {
        if (known.count(e.model))
            continue;
        diags.error(e.pos, kind, name, e.path,
            "Not found: \"" + e.model + "\": no such device model in the catalog; "
                + notFoundHint(e.model, known));
        ok = false;
    }
    return ok;
}

sim::PoolFailures poolFailuresWithModels(const sim::PoolFailures& own, const topology::NodeShape& shape,
    const std::vector<DeviceModelFailures>& byModel)
{
    sim::PoolFailures out = own;
    if (own.failures || byModel.empty())
        return out; // the pool's own figure is its whole server's
    std::set<std::string> taken;
    for (const auto& c : shape.components) {
        if (!topology::isEndpoint(c.kind) || c.model.empty() || !taken.insert(c.model).second)
            continue;
        for (const auto& e : byModel)
            if (e.model == c.model)
                out.deviceModelFailures.push_back(e.process);
    }
    return out;
}

} // namespace drasim::scenario
