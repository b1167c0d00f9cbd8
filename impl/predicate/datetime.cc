#include "impl/predicate/datetime.h"

#include <cstdio>

namespace rlc::predicate {
namespace {

// Howard Hinnant's days_from_civil / civil_from_days (public domain algorithms).
int64_t DaysFromCivil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2 ? 1 : 0;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

void CivilFromDays(int64_t z, int64_t* y, int64_t* m, int64_t* d) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  *d = doy - (153 * mp + 2) / 5 + 1;
  *m = mp < 10 ? mp + 3 : mp - 9;
  *y = yoe + era * 400 + (*m <= 2 ? 1 : 0);
}

bool IsLeap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int64_t DaysInMonth(int64_t y, int64_t m) {
  static constexpr int64_t kDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && IsLeap(y) ? 29 : kDays[m - 1];
}

// Reads exactly `count` decimal digits at text[*pos]; advances *pos.
bool Digits(std::string_view text, size_t* pos, size_t count, int64_t* out) {
  if (text.size() - *pos < count) return false;
  int64_t v = 0;
  for (size_t i = 0; i < count; ++i) {
    const char c = text[*pos + i];
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  *pos += count;
  *out = v;
  return true;
}

bool Expect(std::string_view text, size_t* pos, char c) {
  if (*pos >= text.size() || text[*pos] != c) return false;
  ++*pos;
  return true;
}

// YYYY-MM-DD at text[*pos].
bool DatePart(std::string_view text, size_t* pos, int64_t* days) {
  int64_t y = 0, m = 0, d = 0;
  if (!Digits(text, pos, 4, &y) || !Expect(text, pos, '-') || !Digits(text, pos, 2, &m) ||
      !Expect(text, pos, '-') || !Digits(text, pos, 2, &d)) {
    return false;
  }
  if (m < 1 || m > 12 || d < 1 || d > DaysInMonth(y, m)) return false;
  *days = DaysFromCivil(y, m, d);
  return true;
}

// `.f{1,9}`: microseconds, digits past the sixth dropped.
bool FractionPart(std::string_view text, size_t* pos, int64_t* micros) {
  size_t digits = 0;
  int64_t v = 0;
  while (*pos < text.size() && text[*pos] >= '0' && text[*pos] <= '9') {
    if (digits < 6) v = v * 10 + (text[*pos] - '0');
    ++digits;
    ++*pos;
  }
  if (digits == 0 || digits > 9) return false;
  for (size_t i = digits; i < 6; ++i) v *= 10;
  *micros = v;
  return true;
}

// Z, +HH, +HHMM or +HH:MM; *offset_micros is what to subtract to reach UTC.
bool ZonePart(std::string_view text, size_t* pos, int64_t* offset_micros) {
  if (Expect(text, pos, 'Z')) {
    *offset_micros = 0;
    return true;
  }
  if (*pos >= text.size() || (text[*pos] != '+' && text[*pos] != '-')) return false;
  const int64_t sign = text[*pos] == '-' ? -1 : 1;
  ++*pos;
  int64_t hours = 0, minutes = 0;
  if (!Digits(text, pos, 2, &hours)) return false;
  if (*pos < text.size()) {
    Expect(text, pos, ':');
    if (!Digits(text, pos, 2, &minutes)) return false;
  }
  if (minutes > 59 || hours * 60 + minutes > 18 * 60) return false;
  *offset_micros = sign * (hours * 3600 + minutes * 60) * kMicrosPerSecond;
  return true;
}

}  // namespace

std::optional<int64_t> ParseDate(std::string_view text) {
  size_t pos = 0;
  int64_t days = 0;
  if (!DatePart(text, &pos, &days) || pos != text.size()) return std::nullopt;
  return days;
}

std::optional<ParsedTimestamp> ParseTimestamp(std::string_view text) {
  size_t pos = 0;
  int64_t days = 0, hh = 0, mm = 0, ss = 0, fraction = 0, offset = 0;
  if (!DatePart(text, &pos, &days)) return std::nullopt;
  if (pos >= text.size() || (text[pos] != 'T' && text[pos] != ' ')) return std::nullopt;
  ++pos;
  if (!Digits(text, &pos, 2, &hh) || !Expect(text, &pos, ':') || !Digits(text, &pos, 2, &mm) ||
      !Expect(text, &pos, ':') || !Digits(text, &pos, 2, &ss)) {
    return std::nullopt;
  }
  if (hh > 23 || mm > 59 || ss > 59) return std::nullopt;
  if (Expect(text, &pos, '.') && !FractionPart(text, &pos, &fraction)) return std::nullopt;
  ParsedTimestamp out;
  if (pos < text.size()) {
    if (!ZonePart(text, &pos, &offset) || pos != text.size()) return std::nullopt;
    out.has_zone = true;
  }
  out.micros =
      days * kMicrosPerDay + (hh * 3600 + mm * 60 + ss) * kMicrosPerSecond + fraction - offset;
  return out;
}

std::string FormatDate(int64_t days) {
  int64_t y = 0, m = 0, d = 0;
  CivilFromDays(days, &y, &m, &d);
  char buf[80];
  std::snprintf(buf, sizeof buf, "%04lld-%02lld-%02lld", static_cast<long long>(y),
                static_cast<long long>(m), static_cast<long long>(d));
  return buf;
}

std::string FormatTimestamp(int64_t micros) {
  int64_t days = micros / kMicrosPerDay;
  int64_t rest = micros % kMicrosPerDay;
  if (rest < 0) {
    rest += kMicrosPerDay;
    --days;
  }
  const int64_t seconds = rest / kMicrosPerSecond;
  const int64_t fraction = rest % kMicrosPerSecond;
  char buf[80];
  std::snprintf(buf, sizeof buf, " %02lld:%02lld:%02lld", static_cast<long long>(seconds / 3600),
                static_cast<long long>(seconds / 60 % 60), static_cast<long long>(seconds % 60));
  std::string out = FormatDate(days) + buf;
  if (fraction != 0) {
    std::snprintf(buf, sizeof buf, ".%06lld", static_cast<long long>(fraction));
    out += buf;
  }
  return out;
}

}  // namespace rlc::predicate
