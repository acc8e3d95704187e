// SPDX-License-Identifier: Apache-2.0
#include "core/sim/device_model_name.h"

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
    for (const char* name : { "model", "productName", "pciDevice" })
        if (auto model = deviceAttributeText(d, name))
            return model;
    return std::nullopt;
}

} // namespace drasim::sim
