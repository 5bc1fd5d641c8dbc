// SPDX-License-Identifier: GPL-2.0
#include "local.hpp"

#include <stdexcept>
#include <system_error>

#include "auth/key.hpp"
#include "format.hpp"

namespace rdmablk::rdmablkctl {

namespace {

Outcome key_generate(const Invocation &invocation)
{
	const std::optional<auth::Hash> hash =
		auth::hash_from_name(invocation.request.args.at("hmac").get<std::string>());
	if (!hash)
		throw std::logic_error("key_generate without a valid hmac");
	try {
		const std::string key = auth::generate_key(*hash).to_string();
		Outcome outcome;
		outcome.out = invocation.output == Output::json ? format_json({{"key", key}}) :
								  key + '\n';
		return outcome;
	} catch (const std::system_error &e) {
		std::string message = std::string("cannot generate a key: ") + e.what();
		ctl::ErrorInfo info{ctl::code::internal, message, {}, e.code().value()};
		return Outcome{exit_failed, {}, std::move(message), std::move(info)};
	}
}

} // namespace

Outcome run_local(const Invocation &invocation)
{
	if (invocation.request.cmd == "key_generate")
		return key_generate(invocation);
	throw std::logic_error("no local command " + invocation.request.cmd);
}

} // namespace rdmablk::rdmablkctl
