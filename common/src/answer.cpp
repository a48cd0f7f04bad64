#include "course/answer.h"

#include <algorithm>

namespace course {

void AnswerReader::next(void* target, std::size_t element_bytes, std::size_t count) {
  const std::size_t length = element_bytes * count;
  if (count != 0 && length / count != element_bytes) throw MalformedAnswer("an answer too large to hold");
  lengths_.push_back(length);
  bytes_ += length;
  if (sizing_) return;
  if (span_ >= answer_->size())
    throw MalformedAnswer("the answer has " + std::to_string(answer_->size()) + " parts, fewer than the problem's");
  const std::vector<unsigned char>& span = (*answer_)[span_];
  if (span.size() != length)
    throw MalformedAnswer("part " + std::to_string(span_ + 1) + " of the answer is " + std::to_string(span.size()) +
                          " bytes long, not the " + std::to_string(length) + " the problem gives it");
  if (length > 0) std::memcpy(target, span.data(), length);
  ++span_;
}

void AnswerReader::expect_end() const {
  if (!sizing_ && span_ != answer_->size())
    throw MalformedAnswer("the answer has " + std::to_string(answer_->size()) + " parts, more than the problem's " +
                          std::to_string(span_));
}

std::uint64_t answer_hash(std::uint64_t key, const AnswerBytes& answer) {
  std::uint64_t sum = 0;
  for (std::size_t j = 0; j < answer.size(); ++j) {
    const std::vector<unsigned char>& span = answer[j];
    sum += detail::hash_mix(key ^ span.size());
    const std::size_t words = (span.size() + 7) / 8;
    for (std::size_t i = 0; i < words; ++i) {
      std::uint64_t value = 0;
      std::memcpy(&value, span.data() + 8 * i, std::min<std::size_t>(8, span.size() - 8 * i));
      sum += detail::hash_word(key, j, i, value);
    }
  }
  return sum;
}

}  // namespace course
