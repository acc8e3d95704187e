// SPDX-License-Identifier: Apache-2.0
#pragma once

// Runtime implementations of the builtin functions, one per function name; each dispatches on
// the runtime kinds of its arguments (arguments may be dyn statically). Internal to core/cel.

#include "core/cel/ast.h"

namespace drasim::cel::impl {

#define DRASIM_CEL_BUILTIN(fn) Value fn(EvalContext& ctx, const Value* a, size_t n, const Node& call)

// builtins_core.cpp: operators, size, conversions, type
DRASIM_CEL_BUILTIN(add);
DRASIM_CEL_BUILTIN(subtract);
DRASIM_CEL_BUILTIN(multiply);
DRASIM_CEL_BUILTIN(divide);
DRASIM_CEL_BUILTIN(modulo);
DRASIM_CEL_BUILTIN(negate);
DRASIM_CEL_BUILTIN(logicalNot);
DRASIM_CEL_BUILTIN(equal);
DRASIM_CEL_BUILTIN(notEqual);
DRASIM_CEL_BUILTIN(less);
DRASIM_CEL_BUILTIN(lessEqual);
DRASIM_CEL_BUILTIN(greater);
DRASIM_CEL_BUILTIN(greaterEqual);
DRASIM_CEL_BUILTIN(in);
DRASIM_CEL_BUILTIN(size);
DRASIM_CEL_BUILTIN(toInt);
DRASIM_CEL_BUILTIN(toUint);
DRASIM_CEL_BUILTIN(toDouble);
DRASIM_CEL_BUILTIN(toString);
DRASIM_CEL_BUILTIN(toBool);
DRASIM_CEL_BUILTIN(toBytes);
DRASIM_CEL_BUILTIN(toDyn);
DRASIM_CEL_BUILTIN(typeOf);

// builtins_strings.cpp: standard string functions, strings extension v2, k8s regex
DRASIM_CEL_BUILTIN(contains);
DRASIM_CEL_BUILTIN(startsWith);
DRASIM_CEL_BUILTIN(endsWith);
DRASIM_CEL_BUILTIN(matches);
DRASIM_CEL_BUILTIN(charAt);
DRASIM_CEL_BUILTIN(indexOf);
DRASIM_CEL_BUILTIN(lastIndexOf);
DRASIM_CEL_BUILTIN(lowerAscii);
DRASIM_CEL_BUILTIN(upperAscii);
DRASIM_CEL_BUILTIN(replace);
DRASIM_CEL_BUILTIN(split);
DRASIM_CEL_BUILTIN(substring);
DRASIM_CEL_BUILTIN(trim);
DRASIM_CEL_BUILTIN(join);
DRASIM_CEL_BUILTIN(format);
DRASIM_CEL_BUILTIN(quote);
DRASIM_CEL_BUILTIN(find);
DRASIM_CEL_BUILTIN(findAll);

// builtins_time.cpp: timestamps and durations
DRASIM_CEL_BUILTIN(toDuration);
DRASIM_CEL_BUILTIN(toTimestamp);
DRASIM_CEL_BUILTIN(timeGetter);

// builtins_net.cpp: Kubernetes IP and CIDR libraries
DRASIM_CEL_BUILTIN(ip);
DRASIM_CEL_BUILTIN(isIP);
DRASIM_CEL_BUILTIN(ipIsCanonical);
DRASIM_CEL_BUILTIN(ipFamily);
DRASIM_CEL_BUILTIN(ipPredicate);
DRASIM_CEL_BUILTIN(cidr);
DRASIM_CEL_BUILTIN(isCIDR);
DRASIM_CEL_BUILTIN(containsIP);
DRASIM_CEL_BUILTIN(containsCIDR);
DRASIM_CEL_BUILTIN(cidrIP);
DRASIM_CEL_BUILTIN(cidrMasked);
DRASIM_CEL_BUILTIN(prefixLength);

// builtins_url.cpp: Kubernetes URL library
DRASIM_CEL_BUILTIN(url);
DRASIM_CEL_BUILTIN(isURL);
DRASIM_CEL_BUILTIN(urlGetter);

// builtins_k8s.cpp: quantity, semver, lists, sets, optionals
DRASIM_CEL_BUILTIN(quantity);
DRASIM_CEL_BUILTIN(isQuantity);
DRASIM_CEL_BUILTIN(compareTo);
DRASIM_CEL_BUILTIN(isGreaterThan);
DRASIM_CEL_BUILTIN(isLessThan);
DRASIM_CEL_BUILTIN(quantityAdd);
DRASIM_CEL_BUILTIN(quantitySub);
DRASIM_CEL_BUILTIN(asInteger);
DRASIM_CEL_BUILTIN(isInteger);
DRASIM_CEL_BUILTIN(asApproximateFloat);
DRASIM_CEL_BUILTIN(sign);
DRASIM_CEL_BUILTIN(semver);
DRASIM_CEL_BUILTIN(isSemver);
DRASIM_CEL_BUILTIN(major);
DRASIM_CEL_BUILTIN(minor);
DRASIM_CEL_BUILTIN(patch);
DRASIM_CEL_BUILTIN(isSorted);
DRASIM_CEL_BUILTIN(sum);
DRASIM_CEL_BUILTIN(min);
DRASIM_CEL_BUILTIN(max);
DRASIM_CEL_BUILTIN(setsContains);
DRASIM_CEL_BUILTIN(setsEquivalent);
DRASIM_CEL_BUILTIN(setsIntersects);
DRASIM_CEL_BUILTIN(slice);
DRASIM_CEL_BUILTIN(flatten);
DRASIM_CEL_BUILTIN(distinct);
DRASIM_CEL_BUILTIN(reverse);
DRASIM_CEL_BUILTIN(sort);
DRASIM_CEL_BUILTIN(range);
DRASIM_CEL_BUILTIN(optionalOf);
DRASIM_CEL_BUILTIN(optionalOfNonZero);
DRASIM_CEL_BUILTIN(optionalNone);
DRASIM_CEL_BUILTIN(hasValue);
DRASIM_CEL_BUILTIN(optionalValue);
DRASIM_CEL_BUILTIN(orValue);
DRASIM_CEL_BUILTIN(optionalOr);

#undef DRASIM_CEL_BUILTIN

/// Index a list by code points: byte offset of code point `index` (size when past the end).
size_t utf8Offset(std::string_view s, size_t index);

} // namespace drasim::cel::impl
