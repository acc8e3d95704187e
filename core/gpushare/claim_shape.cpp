// SPDX-License-Identifier: Apache-2.0
#include "core/gpushare/claim_shape.h"

#include <algorithm>

namespace drasim::gpushare {

bool isPlain(const RequestShape& request)
{
    return request.selectors.empty() && request.capacityMilli.empty() && request.matchAttribute.empty()
        && request.firstAvailable < 0;
}

bool isPlain(const ClaimShape& shape)
{
    return std::all_of(shape.begin(), shape.end(), [](const RequestShape& r) { return isPlain(r); });
}

void normalizeShape(ClaimShape& shape)
{
    std::map<std::string, int64_t> plain;
    ClaimShape out;
    for (RequestShape& r : shape) {
        if (r.count <= 0)
            continue;
        if (isPlain(r))
            plain[r.deviceClass] += r.count;
        else
            out.push_back(std::move(r));
    }
    for (const auto& [deviceClass, count] : plain)
        out.push_back({ deviceClass, {}, count, {}, {}, -1, -1, 0 });
    std::sort(out.begin(), out.end());
    shape = std::move(out);
}

} // namespace drasim::gpushare
