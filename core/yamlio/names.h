// SPDX-License-Identifier: Apache-2.0
#pragma once

// Name validation with the API server's messages (apimachinery validation + DRA API rules).
// Each returns an empty string when valid, else the message after `Invalid value: "x": `.

#include <string>
#include <string_view>

namespace drasim::yamlio {

std::string checkDnsLabel(std::string_view s);
std::string checkDnsSubdomain(std::string_view s, size_t maxLength = 253);
std::string checkCIdentifier(std::string_view s, size_t maxLength = 32);
/// DRA attribute/capacity name: C identifier (≤ 32) optionally prefixed "domain/" (DNS subdomain ≤ 63).
std::string checkQualifiedAttributeName(std::string_view s);
/// Like checkQualifiedAttributeName but the domain is required (constraints' matchAttribute).
std::string checkFullyQualifiedAttributeName(std::string_view s);
/// Label key / taint key / condition type: [prefix/]name.
std::string checkLabelKey(std::string_view s);
std::string checkLabelValue(std::string_view s);
/// ResourceSlice pool name: DNS subdomains joined by '/', at most 253 characters.
std::string checkPoolName(std::string_view s);
/// DRA driver name: DNS subdomain of at most 63 characters.
std::string checkDriverName(std::string_view s);

} // namespace drasim::yamlio
