// SPDX-License-Identifier: Apache-2.0
#pragma once

// Name validation with the API server's messages (apimachinery validation + DRA API rules).
// Each returns an empty string when valid, else the message after `Invalid value: "x": `.

#include <string>
#include <string_view>
#include <vector>

namespace drasim::yamlio {

std::string checkDnsLabel(std::string_view s);
/// A DNS-1035 label: a DNS label that starts with a letter (a Service's name).
std::string checkDns1035Label(std::string_view s);
std::string checkDnsSubdomain(std::string_view s, size_t maxLength = 253);
std::string checkCIdentifier(std::string_view s, size_t maxLength = 32);
/// Label key / taint key / condition type: [prefix/]name.
std::string checkLabelKey(std::string_view s);
std::string checkLabelValue(std::string_view s);

/// One finding of a name rule that can give several: `Invalid value: "value": message`, or
/// `Too long: must have at most N bytes` when tooLongMax is set.
struct NameIssue
{
    std::string value;
    std::string message;
    size_t tooLongMax = 0;
    std::string text() const;
};

/// The API server's validateDriverName (ValidateCSIDriverName): at most 63 bytes and a DNS
/// subdomain once lowercased, so "GPU.example.com" is a valid driver name. Empty is the caller's.
std::vector<NameIssue> driverNameIssues(std::string_view s);

/// validatePoolName: at most 253 bytes, each `/`-separated part a DNS subdomain (reported with the
/// part as its value). Empty is the caller's.
std::vector<NameIssue> poolNameIssues(std::string_view s);

/// validateQualifiedName / validateFullyQualifiedName of resource.k8s.io: a C identifier of at
/// most 32 bytes, optionally (or, fully qualified, necessarily) after a driver-name domain and one
/// slash. Each part is reported with its own value, as upstream does.
std::vector<NameIssue> qualifiedNameIssues(std::string_view s, bool fullyQualified);

} // namespace drasim::yamlio
