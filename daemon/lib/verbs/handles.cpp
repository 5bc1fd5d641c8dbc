// SPDX-License-Identifier: GPL-2.0
#include "handles.hpp"

#include <cerrno>
#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <system_error>
#include <utility>

#include <fcntl.h>

namespace rdmablk::verbs {

namespace {

constexpr std::size_t kPageSize = 4096;

} // namespace

void throw_errno(std::string_view what, int err)
{
	throw std::system_error(err, std::generic_category(), std::string(what));
}

void set_nonblocking(int fd, std::string_view what)
{
	const int flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0)
		throw_errno(what, errno);
}

EventChannelPtr make_event_channel()
{
	EventChannelPtr ch(rdma_create_event_channel());
	if (!ch)
		throw_errno("rdma_create_event_channel", errno);
	set_nonblocking(ch->fd, "making the rdma_cm event channel non-blocking");
	return ch;
}

CompChannelPtr make_comp_channel(ibv_context &verbs)
{
	CompChannelPtr ch(ibv_create_comp_channel(&verbs));
	if (!ch)
		throw_errno("ibv_create_comp_channel", errno);
	set_nonblocking(ch->fd, "making the completion channel non-blocking");
	return ch;
}

ibv_qp_init_attr rc_qp_attr(ibv_cq &send_cq, ibv_cq &recv_cq, std::uint32_t max_send_wr,
			    std::uint32_t max_recv_wr)
{
	ibv_qp_init_attr attr = {};
	attr.send_cq = &send_cq;
	attr.recv_cq = &recv_cq;
	attr.qp_type = IBV_QPT_RC;
	attr.cap.max_send_wr = max_send_wr;
	attr.cap.max_recv_wr = max_recv_wr;
	attr.cap.max_send_sge = 1;
	attr.cap.max_recv_sge = 1;
	return attr;
}

rdma_conn_param conn_param(std::span<const std::uint8_t> private_data,
			   std::uint8_t responder_resources)
{
	if (private_data.size() > std::numeric_limits<std::uint8_t>::max())
		throw_errno("connect private data of " + std::to_string(private_data.size()) +
				    " bytes",
			    EINVAL);
	rdma_conn_param param = {};
	param.private_data = private_data.empty() ? nullptr : private_data.data();
	param.private_data_len = static_cast<std::uint8_t>(private_data.size());
	param.responder_resources = responder_resources;
	param.initiator_depth = 0;
	param.flow_control = 1;
	param.retry_count = 7;
	param.rnr_retry_count = 7;
	return param;
}

CmQp::CmQp(rdma_cm_id &id, ibv_pd &pd, ibv_qp_init_attr attr)
{
	if (rdma_create_qp(&id, &pd, &attr))
		throw_errno("rdma_create_qp", errno);
	id_ = &id;
}

CmQp::CmQp(CmQp &&other) noexcept : id_(std::exchange(other.id_, nullptr)) {}

CmQp &CmQp::operator=(CmQp &&other) noexcept
{
	if (this != &other) {
		if (id_)
			rdma_destroy_qp(id_);
		id_ = std::exchange(other.id_, nullptr);
	}
	return *this;
}

CmQp::~CmQp()
{
	if (id_)
		rdma_destroy_qp(id_);
}

void Region::Free::operator()(std::uint8_t *p) const noexcept
{
	std::free(p);
}

Region::Region(ibv_pd &pd, std::size_t size, int access) : size_(size)
{
	const std::size_t alloc = (size + kPageSize - 1) / kPageSize * kPageSize;
	mem_.reset(static_cast<std::uint8_t *>(std::aligned_alloc(kPageSize, alloc)));
	if (!mem_)
		throw_errno("allocating a buffer", ENOMEM);
	std::memset(mem_.get(), 0, alloc);
	mr_.reset(ibv_reg_mr(&pd, mem_.get(), size, access));
	if (!mr_)
		throw_errno("ibv_reg_mr", errno);
}

void post_send(ibv_qp &qp, const Region &region, std::size_t offset,
	       std::span<const std::uint8_t> msg, std::uint64_t wr_id)
{
	std::copy(msg.begin(), msg.end(), region.bytes().subspan(offset, msg.size()).begin());
	ibv_sge sge = {
		.addr = region.addr() + offset,
		.length = static_cast<std::uint32_t>(msg.size()),
		.lkey = region.lkey(),
	};
	ibv_send_wr wr = {};
	wr.wr_id = wr_id;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = IBV_WR_SEND;
	wr.send_flags = IBV_SEND_SIGNALED;
	ibv_send_wr *bad = nullptr;
	if (const int rc = ibv_post_send(&qp, &wr, &bad))
		throw_errno("ibv_post_send", rc);
}

void post_recv(ibv_qp &qp, const Region &region, std::size_t offset, std::size_t length,
	       std::uint64_t wr_id)
{
	ibv_sge sge = {
		.addr = region.addr() + offset,
		.length = static_cast<std::uint32_t>(length),
		.lkey = region.lkey(),
	};
	ibv_recv_wr wr = {};
	wr.wr_id = wr_id;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	ibv_recv_wr *bad = nullptr;
	if (const int rc = ibv_post_recv(&qp, &wr, &bad))
		throw_errno("ibv_post_recv", rc);
}

} // namespace rdmablk::verbs
