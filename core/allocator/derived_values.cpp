// SPDX-License-Identifier: Apache-2.0
#include "core/allocator/derived_values.h"

namespace drasim::allocator {

const cel::DerivedValue& DerivedValues::of(const cel::DerivedAttribute& attr, const DeviceEntry& e)
{
    auto [it, inserted] = m_values.try_emplace({ &attr, e.instance });
    if (inserted) {
        cel::DeviceView view;
        view.driver = e.slice->driver;
        view.attributes = &e.device->attributes;
        view.capacity = &e.device->capacity;
        view.allowMultipleAllocations = e.multi;
        it->second = attr.evaluate(view);
    }
    return it->second;
}

} // namespace drasim::allocator
