// SPDX-License-Identifier: Apache-2.0
#include "core/allocator/constraint_values.h"

#include <algorithm>

namespace drasim::allocator {

namespace {

// A device's value as a set: a scalar is a set of one. Lists come deduplicated from neither the
// driver nor CEL, but membership tests do not care.
struct ValueSet
{
    const api::DeviceAttribute* first;
    const api::DeviceAttribute* last;
};

ValueSet asSet(const ConstraintValue& v)
{
    if (v.scalar)
        return { v.scalar, v.scalar + 1 };
    return { v.list->data(), v.list->data() + v.list->size() };
}

bool contains(const std::vector<api::DeviceAttribute>& set, const api::DeviceAttribute& x)
{
    return std::any_of(
        set.begin(), set.end(), [&](const api::DeviceAttribute& y) { return sameValue(x, y); });
}

bool intersects(const std::vector<api::DeviceAttribute>& set, const ValueSet& v)
{
    return std::any_of(v.first, v.last, [&](const api::DeviceAttribute& x) { return contains(set, x); });
}

std::vector<api::DeviceAttribute> intersection(
    const std::vector<api::DeviceAttribute>& set, const ValueSet& v)
{
    std::vector<api::DeviceAttribute> out;
    for (const auto& x : set)
        if (std::any_of(v.first, v.last, [&](const api::DeviceAttribute& y) { return sameValue(x, y); }))
            out.push_back(x);
    return out;
}

// A derived attribute's value as the trace shows it: strings quoted, versions as written.
std::string attributeText(const api::DeviceAttribute& a)
{
    switch (a.type) {
    case api::DeviceAttribute::Type::Int:
        return std::to_string(a.intValue);
    case api::DeviceAttribute::Type::Bool:
        return a.boolValue ? "true" : "false";
    case api::DeviceAttribute::Type::String:
        return "\"" + a.stringValue + "\"";
    default:
        return a.stringValue;
    }
}

} // namespace

// Cheaper than the member-wise default: the search compares values on every pick.
bool sameValue(const api::DeviceAttribute& a, const api::DeviceAttribute& b)
{
    if (a.type != b.type)
        return false;
    switch (a.type) {
    case api::DeviceAttribute::Type::Int:
        return a.intValue == b.intValue;
    case api::DeviceAttribute::Type::Bool:
        return a.boolValue == b.boolValue;
    default:
        return a.stringValue == b.stringValue;
    }
}

bool constraintAccepts(bool match, bool sets, const ConstraintState& st, const ConstraintValue& v)
{
    if (sets) {
        if (match)
            return st.count == 0 || intersects(st.sets.back(), asSet(v));
        return std::none_of(st.sets.begin(), st.sets.end(),
            [&](const std::vector<api::DeviceAttribute>& s) { return intersects(s, asSet(v)); });
    }
    if (match)
        return st.count == 0 || (v.scalar && st.value && sameValue(*v.scalar, *st.value));
    // Every device the constraint covers is compared with every other, also the devices of one
    // request (upstream keeps a list since it stopped keying the values by request name, which
    // let a request with several devices repeat a value after backtracking).
    for (const auto& x : st.distinct)
        if (!x || (v.scalar && sameValue(*x, *v.scalar)))
            return false;
    return true;
}

void constraintPush(bool match, bool sets, ConstraintState& st, const ConstraintValue& v)
{
    if (sets) {
        if (match && st.count > 0)
            st.sets.push_back(intersection(st.sets.back(), asSet(v)));
        else
            st.sets.emplace_back(asSet(v).first, asSet(v).last);
    } else if (match) {
        if (st.count == 0)
            st.value = v.scalar ? std::optional(*v.scalar) : std::nullopt;
    } else {
        st.distinct.push_back(v.scalar ? std::optional(*v.scalar) : std::nullopt);
    }
    ++st.count;
}

void constraintPop(bool match, bool sets, ConstraintState& st)
{
    --st.count;
    if (sets)
        st.sets.pop_back();
    else if (!match)
        st.distinct.pop_back();
}

std::string constraintValueText(const ConstraintValue& v)
{
    if (v.scalar)
        return attributeText(*v.scalar);
    std::string out = "[";
    for (const auto& x : *v.list)
        out += (out.size() > 1 ? ", " : "") + attributeText(x);
    return out + "]";
}

} // namespace drasim::allocator
