// SPDX-License-Identifier: Apache-2.0
// Timestamps and durations (cel.md §6): conversions, arithmetic with overflow checks, and the
// timestamp/duration accessors with optional time zones.
#include "core/cel/builtin_impls.h"
#include "core/cel/builtins.h"
#include "core/cel/interpreter.h"
#include "core/cel/time_util.h"

namespace drasim::cel {

Value timestampValue(int64_t seconds, int32_t nanos)
{
    if (seconds < kMinTimestampSeconds || seconds > kMaxTimestampSeconds)
        return Value::error("timestamp overflow");
    Value r;
    r.kind = Kind::Timestamp;
    r.i = seconds;
    r.n = size_t(nanos);
    return r;
}

Value durationValue(int64_t nanos)
{
    Value r;
    r.kind = Kind::Duration;
    r.i = nanos;
    return r;
}

Value timeArithmetic(const Value& a, const Value& b, bool subtract)
{
    auto tsNanos = [](const Value& t) { return __int128(t.i) * kNanosPerSecond + __int128(t.n); };
    auto fromNanos = [](__int128 total) {
        __int128 secs = total / kNanosPerSecond;
        __int128 rem = total % kNanosPerSecond;
        if (rem < 0) {
            rem += kNanosPerSecond;
            secs -= 1;
        }
        if (secs < kMinTimestampSeconds || secs > kMaxTimestampSeconds)
            return Value::error("timestamp overflow");
        return timestampValue(int64_t(secs), int32_t(rem));
    };
    auto durationResult = [](__int128 total) {
        if (total > INT64_MAX || total < INT64_MIN)
            return Value::error("duration overflow");
        return durationValue(int64_t(total));
    };
    if (!subtract) {
        if (a.kind == Kind::Timestamp && b.kind == Kind::Duration)
            return fromNanos(tsNanos(a) + b.i);
        if (a.kind == Kind::Duration && b.kind == Kind::Timestamp)
            return fromNanos(tsNanos(b) + a.i);
        if (a.kind == Kind::Duration && b.kind == Kind::Duration)
            return durationResult(__int128(a.i) + b.i);
        return noSuchOverload("_+_");
    }
    if (a.kind == Kind::Timestamp && b.kind == Kind::Timestamp)
        return durationResult(tsNanos(a) - tsNanos(b));
    if (a.kind == Kind::Timestamp && b.kind == Kind::Duration)
        return fromNanos(tsNanos(a) - b.i);
    if (a.kind == Kind::Duration && b.kind == Kind::Duration)
        return durationResult(__int128(a.i) - b.i);
    return noSuchOverload("_-_");
}

namespace impl {

#define BUILTIN(fn) Value fn(EvalContext& ctx, const Value* a, size_t n, const Node& call)
#define UNUSED_ARGS                                                                                          \
    (void)ctx;                                                                                               \
    (void)n;                                                                                                 \
    (void)call

BUILTIN(toDuration)
{
    UNUSED_ARGS;
    if (a[0].kind == Kind::Duration)
        return a[0];
    if (a[0].kind != Kind::String)
        return noSuchOverload("duration");
    std::string error;
    auto d = parseDuration(a[0].str(), &error);
    if (!d)
        return Value::error(error);
    return durationValue(*d);
}

BUILTIN(toTimestamp)
{
    UNUSED_ARGS;
    if (a[0].kind == Kind::Timestamp)
        return a[0];
    if (a[0].kind == Kind::Int)
        return timestampValue(a[0].i, 0);
    if (a[0].kind != Kind::String)
        return noSuchOverload("timestamp");
    int64_t secs = 0;
    int32_t nanos = 0;
    std::string error;
    if (!parseTimestamp(a[0].str(), &secs, &nanos, &error))
        return Value::error(error);
    return timestampValue(secs, nanos);
}

BUILTIN(timeGetter)
{
    UNUSED_ARGS;
    const std::string& f = call.name;
    if (a[0].kind == Kind::Duration) {
        if (n != 1)
            return noSuchOverload(f);
        int64_t d = a[0].i;
        if (f == "getHours")
            return Value::integer(d / (3600 * kNanosPerSecond));
        if (f == "getMinutes")
            return Value::integer(d / (60 * kNanosPerSecond));
        if (f == "getSeconds")
            return Value::integer(d / kNanosPerSecond);
        if (f == "getMilliseconds")
            return Value::integer(d % kNanosPerSecond / 1000000);
        return noSuchOverload(f);
    }
    if (a[0].kind != Kind::Timestamp || (n == 2 && a[1].kind != Kind::String))
        return noSuchOverload(f);
    std::string error;
    auto offset = zoneOffset(n == 2 ? a[1].str() : std::string_view("UTC"), a[0].i, &error);
    if (!offset)
        return Value::error(error);
    CivilTime c = civilFromUnix(a[0].i, *offset);
    if (f == "getFullYear")
        return Value::integer(c.year);
    if (f == "getMonth")
        return Value::integer(c.month - 1);
    if (f == "getDate")
        return Value::integer(c.day);
    if (f == "getDayOfMonth")
        return Value::integer(c.day - 1);
    if (f == "getDayOfWeek")
        return Value::integer(c.dayOfWeek);
    if (f == "getDayOfYear")
        return Value::integer(c.dayOfYear);
    if (f == "getHours")
        return Value::integer(c.hour);
    if (f == "getMinutes")
        return Value::integer(c.minute);
    if (f == "getSeconds")
        return Value::integer(c.second);
    if (f == "getMilliseconds")
        return Value::integer(int64_t(a[0].n) / 1000000);
    return noSuchOverload(f);
}

#undef BUILTIN
#undef UNUSED_ARGS

} // namespace impl

} // namespace drasim::cel
