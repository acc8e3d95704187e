// SPDX-License-Identifier: Apache-2.0
#include "core/scenario/rack_layout_yaml.h"

namespace drasim::scenario {

void parseRackLayout(
    yamlio::DocReader& r, const yamlio::YamlNode& n, const std::string& path, topology::RackLayout& out)
{
    r.fields(n, path, "nodesPerRack, racksPerBlock",
        [&](const std::string& key, const yamlio::YamlNode& v, const std::string& sub) {
            int* target = key == "nodesPerRack" ? &out.nodesPerRack
                : key == "racksPerBlock"        ? &out.racksPerBlock
                                                : nullptr;
            if (!target)
                return false;
            if (const auto i = r.integer(v, sub, 1, 1'000'000))
                *target = int(*i);
            return true;
        });
}

DataValue rackLayoutData(const topology::RackLayout& layout)
{
    DataValue d = DataValue::map();
    if (layout.nodesPerRack > 0)
        d.set("nodesPerRack", int64_t(layout.nodesPerRack));
    if (layout.racksPerBlock > 0)
        d.set("racksPerBlock", int64_t(layout.racksPerBlock));
    return d;
}

} // namespace drasim::scenario
