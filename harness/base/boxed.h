// Boxed<T>: an optional value kept on the heap, with std::optional's interface (has_value,
// *, ->, emplace, reset, assignment from T or std::nullopt) and value semantics (a copy copies
// the value). An empty one takes one pointer; std::optional<T> takes sizeof(T) whether set or
// not. For the parts of a record that are set rarely but large (a failing case's mismatch,
// diagnosis and shrunk repro in every CaseResult of a run of millions of passing cases).
//
// Example:
//   Boxed<Diagnosis> d;           // 8 bytes, empty
//   d = Diagnosis{.mistake = "mode swapped"};
//   if (d) std::cout << d->mistake;
#ifndef DMCONF_HARNESS_BASE_BOXED_H_
#define DMCONF_HARNESS_BASE_BOXED_H_

#include <memory>
#include <optional>
#include <utility>

namespace dmconf {

template <typename T>
class Boxed {
 public:
  Boxed() = default;
  Boxed(std::nullopt_t) {}                                       // NOLINT: as std::optional
  Boxed(T value) : p_(std::make_unique<T>(std::move(value))) {}  // NOLINT: as std::optional
  Boxed(const std::optional<T>& o) {                             // NOLINT: as std::optional
    if (o.has_value()) p_ = std::make_unique<T>(*o);
  }
  Boxed(std::optional<T>&& o) {  // NOLINT: as std::optional
    if (o.has_value()) p_ = std::make_unique<T>(*std::move(o));
  }
  Boxed(const Boxed& o) : p_(o.p_ ? std::make_unique<T>(*o.p_) : nullptr) {}
  Boxed(Boxed&&) noexcept = default;
  Boxed& operator=(const Boxed& o) {
    if (this != &o) p_ = o.p_ ? std::make_unique<T>(*o.p_) : nullptr;
    return *this;
  }
  Boxed& operator=(Boxed&&) noexcept = default;
  Boxed& operator=(std::nullopt_t) {
    p_.reset();
    return *this;
  }

  bool has_value() const { return p_ != nullptr; }
  explicit operator bool() const { return p_ != nullptr; }
  T& operator*() { return *p_; }
  const T& operator*() const { return *p_; }
  T* operator->() { return p_.get(); }
  const T* operator->() const { return p_.get(); }
  template <typename... Args>
  T& emplace(Args&&... args) {
    p_ = std::make_unique<T>(std::forward<Args>(args)...);
    return *p_;
  }
  void reset() { p_.reset(); }
  // The value as a std::optional (a copy), for code that takes one.
  operator std::optional<T>() const {  // NOLINT: as std::optional
    return p_ ? std::optional<T>(*p_) : std::nullopt;
  }

 private:
  std::unique_ptr<T> p_;
};

}  // namespace dmconf

#endif  // DMCONF_HARNESS_BASE_BOXED_H_
