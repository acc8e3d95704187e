// SPDX-License-Identifier: Apache-2.0
#include "core/sim/device_model_name.h"

#include <iterator>

namespace drasim::sim {

std::optional<std::string> deviceAttributeText(const api::Device& d, std::string_view name)
{
    const bool qualified = name.find('/') != std::string_view::npos;
    for (const auto& [key, attr] : d.attributes) {
        if (attr.type != api::DeviceAttribute::Type::String
            && attr.type != api::DeviceAttribute::Type::Version)
            continue;
        std::string_view id = key;
        if (!qualified) {
            auto slash = id.rfind('/');
            if (slash != std::string_view::npos)
                id.remove_prefix(slash + 1);
        }
        if (id == name)
            return attr.stringValue;
    }
    return std::nullopt;
}

std::optional<std::string> deviceModelName(const api::Device& d)
{
    // One walk over the attributes for the three names (each device of every node added to a
    // run's metrics passes here): the first attribute of each name, the first name found wins.
    static constexpr std::string_view kNames[] = { "model", "productName", "pciDevice" };
    const std::string* found[std::size(kNames)] = {};
    for (const auto& [key, attr] : d.attributes) {
        if (attr.type != api::DeviceAttribute::Type::String
            && attr.type != api::DeviceAttribute::Type::Version)
            continue;
        std::string_view id = key;
        if (auto slash = id.rfind('/'); slash != std::string_view::npos)
            id.remove_prefix(slash + 1);
        for (size_t i = 0; i < std::size(kNames); ++i)
            if (!found[i] && id == kNames[i])
                found[i] = &attr.stringValue;
        if (found[0])
            break;
    }
    for (const std::string* model : found)
        if (model)
            return *model;
    return std::nullopt;
}

} // namespace drasim::sim
