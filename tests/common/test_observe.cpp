// The grader's record format (tests/support/observe.hpp): values survive a round trip, and
// hostile bytes (a count larger than the data, a cut-off value) are refused before anything
// is allocated, so a student's program cannot crash or exhaust the judge that reads them.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "observe.hpp"

using kit::testing::Codec;
using kit::testing::Decoder;
using kit::testing::Encoder;
using kit::testing::NotRecorded;

namespace {

template <class T>
T round_trip(const T& value) {
    Encoder e;
    Codec<T>::encode(e, value);
    Decoder d{e.bytes.data(), e.bytes.data() + e.bytes.size()};
    T back = Codec<T>::decode(d);
    EXPECT_EQ(d.pos, d.end) << "every byte is read back";
    return back;
}

}  // namespace

TEST(Observe, RunResultRoundTrip) {
    kit::RunResult r;
    r.y = {1.5, -0.0, 3e300};
    r.times_ms = {0.25};
    r.bytes = 123456789012LL;
    r.note = "fill 1.25";

    const kit::RunResult back = round_trip(r);

    EXPECT_EQ(back.y, r.y);
    EXPECT_EQ(back.times_ms, r.times_ms);
    EXPECT_EQ(back.bytes, r.bytes);
    EXPECT_EQ(back.note, r.note);
    EXPECT_EQ(back.device, "");
}

TEST(Observe, NestedContainersRoundTrip) {
    const std::vector<std::pair<std::string, std::optional<int>>> v = {{"a", 3}, {"", std::nullopt}};

    EXPECT_EQ(round_trip(v), v);
}

TEST(Observe, HugeCountIsRefusedWithoutAllocating) {
    Encoder e;
    const std::uint64_t huge = std::numeric_limits<std::uint64_t>::max() / 2;
    e.raw(&huge, sizeof huge);  // claims 2^63 doubles in 8 bytes
    Decoder d{e.bytes.data(), e.bytes.data() + e.bytes.size()};

    EXPECT_THROW(Codec<std::vector<double>>::decode(d), NotRecorded);
}

TEST(Observe, CutValueIsRefused) {
    Encoder e;
    Codec<std::string>::encode(e, "twelve bytes");
    Decoder d{e.bytes.data(), e.bytes.data() + e.bytes.size() - 1};

    EXPECT_THROW(Codec<std::string>::decode(d), NotRecorded);
}

TEST(Observe, PlainModeJustCalls) {
    int calls = 0;

    const int v = kit::testing::observe([&] { return ++calls * 7; });

    EXPECT_EQ(v, 7);
    EXPECT_EQ(calls, 1);
}
