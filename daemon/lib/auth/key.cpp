// SPDX-License-Identifier: GPL-2.0
#include "auth/key.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <stdexcept>
#include <system_error>

#include <fcntl.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "ctl/fd.hpp" /* header only */

namespace rdmablk::auth {

namespace {

constexpr std::string_view prefix = "RDMABLK-1:";
constexpr std::size_t crc_size = 4;
/* The secret and its CRC-32, and room for the padding base64 decodes to. */
constexpr std::size_t blob_max = (max_secret_size + crc_size + 2) / 3 * 3;
/* A key file holds one key, of at most 106 characters, and a newline. */
constexpr std::size_t file_max = 512;

struct HashInfo {
	Hash hash;
	std::string_view hh; /* in the key's text */
	std::string_view name;
	const char *hmac;
	std::size_t secret_size;
};

constexpr HashInfo hashes[] = {
	{Hash::sha256, "01", "sha256", "HMAC-SHA-256", 32},
	{Hash::sha384, "02", "sha384", "HMAC-SHA-384", 48},
	{Hash::sha512, "03", "sha512", "HMAC-SHA-512", 64},
};

const HashInfo &info(Hash hash)
{
	for (const HashInfo &h : hashes)
		if (h.hash == hash)
			return h;
	throw std::invalid_argument("unknown key hash " +
				    std::to_string(static_cast<unsigned>(hash)));
}

/* "01 (HMAC-SHA-256)" */
std::string hash_id(const HashInfo &h)
{
	return std::string(h.hh) + " (" + h.hmac + ")";
}

/* Wipes a buffer that held a secret when it goes out of scope. */
template <typename Buffer> struct Wiped {
	Buffer buf{};
	Wiped() = default;
	Wiped(const Wiped &) = delete;
	Wiped &operator=(const Wiped &) = delete;
	~Wiped() { OPENSSL_cleanse(buf.data(), buf.size()); }
};

std::uint32_t crc_of(std::span<const std::uint8_t> bytes)
{
	return static_cast<std::uint32_t>(
		::crc32(::crc32(0L, Z_NULL, 0), bytes.data(), static_cast<uInt>(bytes.size())));
}

[[noreturn]] void invalid(const std::string &problem)
{
	throw std::invalid_argument(problem);
}

bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

char to_upper(char c)
{
	return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
}

bool is_base64(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || is_digit(c) || c == '+' ||
	       c == '/';
}

/* The length padded standard base64 @text decodes to; nullopt when it is not that. */
std::optional<std::size_t> decoded_size(std::string_view text)
{
	if (text.empty() || text.size() % 4 != 0)
		return std::nullopt;
	std::size_t pad = 0;
	while (pad < 2 && text[text.size() - 1 - pad] == '=')
		pad++;
	if (!std::all_of(text.begin(), text.end() - static_cast<std::ptrdiff_t>(pad), is_base64))
		return std::nullopt;
	return text.size() / 4 * 3 - pad;
}

/* The hash "HH:" at the start of @text names, "RDMABLK-1:" taken off. */
const HashInfo &hash_field(std::string_view text)
{
	for (const HashInfo &h : hashes)
		if (text.starts_with(h.hh) && text.substr(h.hh.size()).starts_with(':'))
			return h;
	std::string problem = "the key's HMAC id, after \"RDMABLK-1:\", must be 01 (HMAC-SHA-256), "
			      "02 (HMAC-SHA-384) or 03 (HMAC-SHA-512)";
	/* Two digits are an HMAC id and no part of the secret: safe to show. */
	if (text.size() >= 3 && is_digit(text[0]) && is_digit(text[1]) && text[2] == ':')
		problem += ", not " + std::string(text.substr(0, 2));
	invalid(problem);
}

} // namespace

std::size_t secret_size(Hash hash)
{
	return info(hash).secret_size;
}

std::string_view hash_name(Hash hash)
{
	return info(hash).name;
}

std::optional<Hash> hash_from_name(std::string_view name)
{
	for (const HashInfo &h : hashes)
		if (h.name == name)
			return h.hash;
	return std::nullopt;
}

Key::Key(Hash hash, std::span<const std::uint8_t> secret) : hash_(hash), size_(secret.size())
{
	if (secret.size() != info(hash).secret_size)
		throw std::invalid_argument("a key for " + hash_id(info(hash)) + " needs a " +
					    std::to_string(info(hash).secret_size) +
					    "-byte secret, not " + std::to_string(secret.size()));
	std::copy(secret.begin(), secret.end(), secret_.begin());
}

Key::Key(Key &&other) noexcept : hash_(other.hash_), size_(other.size_), secret_(other.secret_)
{
	other.clear();
}

Key &Key::operator=(Key &&other) noexcept
{
	if (this != &other) {
		clear();
		hash_ = other.hash_;
		size_ = other.size_;
		secret_ = other.secret_;
		other.clear();
	}
	return *this;
}

Key::~Key()
{
	clear();
}

void Key::clear() noexcept
{
	OPENSSL_cleanse(secret_.data(), secret_.size());
	size_ = 0;
}

std::string Key::to_string() const
{
	if (size_ == 0)
		throw std::logic_error("an empty key has no text");

	Wiped<std::array<std::uint8_t, max_secret_size + crc_size>> blob;
	std::copy_n(secret_.begin(), size_, blob.buf.begin());
	const std::uint32_t crc = crc_of(secret());
	for (std::size_t i = 0; i < crc_size; i++)
		blob.buf[size_ + i] = static_cast<std::uint8_t>(crc >> (8 * i));

	/* 4 characters for each 3 bytes begun, and a NUL. */
	Wiped<std::array<unsigned char, blob_max / 3 * 4 + 1>> b64;
	const int n = EVP_EncodeBlock(b64.buf.data(), blob.buf.data(),
				      static_cast<int>(size_ + crc_size));
	/* Built in place: no temporary holds the secret and is freed unwiped. */
	std::string text;
	text.reserve(prefix.size() + 3 + static_cast<std::size_t>(n) + 1);
	text.append(prefix).append(info(hash_).hh).append(":");
	text.append(reinterpret_cast<const char *>(b64.buf.data()), static_cast<std::size_t>(n));
	text.append(":");
	return text;
}

Key parse_key(std::string_view text)
{
	if (text.empty())
		invalid("the key is empty");
	if (std::any_of(text.begin(), text.end(), is_space))
		invalid("the key contains whitespace: a key is one word, copy it without spaces or "
			"line breaks");
	if (!text.starts_with(prefix)) {
		const bool other_case = text.size() >= prefix.size() &&
					std::equal(prefix.begin(), prefix.end(), text.begin(),
						   [](char p, char t) { return p == to_upper(t); });
		invalid(other_case ? "the key must start with \"RDMABLK-1:\" in capital letters" :
				     "not an rdmablk key: it does not start with \"RDMABLK-1:\"");
	}
	text.remove_prefix(prefix.size());

	const HashInfo &h = hash_field(text);
	text.remove_prefix(3);

	const std::size_t colon = text.find(':');
	if (colon == std::string_view::npos)
		invalid("the key does not end with \":\": it was cut short, copy all of it");
	if (colon + 1 != text.size())
		invalid("the key has characters after its final \":\": copy the key alone");
	const std::string_view b64 = text.substr(0, colon);

	const std::optional<std::size_t> size = decoded_size(b64);
	if (!size)
		invalid("the key's secret is not valid base64: the key is damaged, copy it again");
	if (*size != h.secret_size + crc_size)
		invalid("the key's length does not match its HMAC id " + hash_id(h) +
			": it holds " + std::to_string(*size) + " bytes, expected " +
			std::to_string(h.secret_size + crc_size) + " (a " +
			std::to_string(h.secret_size) + "-byte secret and its CRC-32)");

	/* EVP_DecodeBlock() writes the padding's bytes too: 3 for every 4 characters. */
	Wiped<std::array<std::uint8_t, blob_max>> blob;
	if (EVP_DecodeBlock(blob.buf.data(), reinterpret_cast<const unsigned char *>(b64.data()),
			    static_cast<int>(b64.size())) < 0)
		invalid("the key's secret is not valid base64: the key is damaged, copy it again");
	const std::span<const std::uint8_t> secret(blob.buf.data(), h.secret_size);
	std::uint32_t crc = 0;
	for (std::size_t i = 0; i < crc_size; i++)
		crc |= static_cast<std::uint32_t>(blob.buf[h.secret_size + i]) << (8 * i);
	if (crc != crc_of(secret))
		invalid("the key is damaged (CRC mismatch): copy it again");
	return Key(h.hash, secret);
}

Key generate_key(Hash hash)
{
	Wiped<std::array<std::uint8_t, max_secret_size>> secret;
	const std::size_t size = secret_size(hash);
	std::size_t have = 0;
	while (have < size) {
		const ssize_t n = ::getrandom(secret.buf.data() + have, size - have, 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			throw std::system_error(errno, std::generic_category(), "getrandom");
		}
		have += static_cast<std::size_t>(n);
	}
	return Key(hash, std::span(secret.buf.data(), size));
}

Key read_key_file(const std::string &path)
{
	const ctl::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY));
	if (!fd)
		throw std::system_error(errno, std::generic_category(), "opening " + path);

	struct stat st;
	if (::fstat(fd.get(), &st) < 0)
		throw std::system_error(errno, std::generic_category(), "reading " + path);
	if (!S_ISREG(st.st_mode))
		throw std::runtime_error(path + ": not a regular file");
	if (st.st_mode & 077) {
		char mode[8];
		std::snprintf(mode, sizeof(mode), "%04o",
			      static_cast<unsigned>(st.st_mode & 07777));
		throw std::runtime_error(
			path + ": a key file must be accessible to its owner only, not mode " +
			mode + ": run 'chmod 600 " + path + "'");
	}

	/* One byte more than a key file may hold, to tell one that is too long. */
	Wiped<std::array<char, file_max + 1>> content;
	std::size_t have = 0;
	while (have < content.buf.size()) {
		const ssize_t n =
			::read(fd.get(), content.buf.data() + have, content.buf.size() - have);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			throw std::system_error(errno, std::generic_category(), "reading " + path);
		}
		if (n == 0)
			break;
		have += static_cast<std::size_t>(n);
	}
	if (have > file_max)
		throw std::runtime_error(path + ": too long to hold a key");

	std::string_view text(content.buf.data(), have);
	if (text.ends_with('\n'))
		text.remove_suffix(1);
	try {
		return parse_key(text);
	} catch (const std::invalid_argument &e) {
		throw std::runtime_error(path + ": " + e.what());
	}
}

} // namespace rdmablk::auth
