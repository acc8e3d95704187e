// SPDX-License-Identifier: Apache-2.0
#pragma once

// Internal to yamlio: cuts a large `kubectl get -o yaml` dump (one block-style `kind: List` whose
// items start with "- " in column 0) into its items, so they can be parsed independently and in
// parallel. Only a speed path: when the text has any other shape the caller parses it whole, and
// when any piece fails to parse the caller re-parses the whole text so that errors read exactly
// as they would without splitting.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace drasim::yamlio {

struct ListSplit
{
    std::string skeleton; ///< the text without its items (header, "items:" line, trailer)
    struct Item
    {
        std::string_view text;
        uint32_t lineOffset; ///< lines before the item in the whole text
    };
    std::vector<Item> items;
};

std::optional<ListSplit> splitTopLevelList(std::string_view text);

} // namespace drasim::yamlio
