// SPDX-License-Identifier: GPL-2.0
/*
 * Owning handles for librdmacm and libibverbs objects, so that every
 * resource of a connection is released in the right order however its
 * setup ends. Failures throw std::system_error naming the call.
 */
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

namespace rdmablk::verbs {

/* Throw std::system_error(@err) "@what: strerror(@err)". */
[[noreturn]] void throw_errno(std::string_view what, int err);

/* Make @fd non-blocking; throws naming @what. */
void set_nonblocking(int fd, std::string_view what);

template <auto Destroy> struct Deleter {
	template <typename T> void operator()(T *p) const noexcept { Destroy(p); }
};

using EventChannelPtr = std::unique_ptr<rdma_event_channel, Deleter<rdma_destroy_event_channel>>;
using CmIdPtr = std::unique_ptr<rdma_cm_id, Deleter<rdma_destroy_id>>;
using PdPtr = std::unique_ptr<ibv_pd, Deleter<ibv_dealloc_pd>>;
using CompChannelPtr = std::unique_ptr<ibv_comp_channel, Deleter<ibv_destroy_comp_channel>>;
using CqPtr = std::unique_ptr<ibv_cq, Deleter<ibv_destroy_cq>>;
using MrPtr = std::unique_ptr<ibv_mr, Deleter<ibv_dereg_mr>>;

/* A non-blocking rdma_cm event channel. */
EventChannelPtr make_event_channel();

/* A non-blocking completion channel on @verbs. */
CompChannelPtr make_comp_channel(ibv_context &verbs);

/*
 * The attributes of a reliable-connected QP completing sends on @send_cq and
 * receives on @recv_cq, with room for @max_send_wr sends and @max_recv_wr
 * receives of one scatter/gather element each.
 */
ibv_qp_init_attr rc_qp_attr(ibv_cq &send_cq, ibv_cq &recv_cq, std::uint32_t max_send_wr,
			    std::uint32_t max_recv_wr);

/*
 * Parameters for rdma_connect() carrying @private_data (none when empty),
 * which must stay valid until the call returns. The peer may have
 * @responder_resources RDMA READs outstanding against us; we issue none.
 * Flow control is on and both retry counts are at their maximum, 7.
 * Throws std::system_error(EINVAL) for private data longer than 255 bytes.
 */
rdma_conn_param conn_param(std::span<const std::uint8_t> private_data,
			   std::uint8_t responder_resources);

/* The QP rdma_create_qp() attached to a cm id; destroyed before the id. */
class CmQp {
public:
	CmQp() = default;
	CmQp(rdma_cm_id &id, ibv_pd &pd, ibv_qp_init_attr attr);
	CmQp(CmQp &&other) noexcept;
	CmQp &operator=(CmQp &&other) noexcept;
	CmQp(const CmQp &) = delete;
	CmQp &operator=(const CmQp &) = delete;
	~CmQp();

	ibv_qp &get() const { return *id_->qp; }
	explicit operator bool() const { return id_ != nullptr; }

private:
	rdma_cm_id *id_ = nullptr;
};

/* Page-aligned, zeroed memory registered with a PD. */
class Region {
public:
	Region() = default;
	Region(ibv_pd &pd, std::size_t size, int access);

	std::span<std::uint8_t> bytes() const { return {mem_.get(), size_}; }
	std::uint64_t addr() const { return reinterpret_cast<std::uintptr_t>(mem_.get()); }
	std::uint32_t lkey() const { return mr_->lkey; }
	std::uint32_t rkey() const { return mr_->rkey; }

private:
	struct Free {
		void operator()(std::uint8_t *p) const noexcept;
	};
	std::unique_ptr<std::uint8_t, Free> mem_;
	std::size_t size_ = 0;
	MrPtr mr_; /* after mem_: deregistered before the memory is freed */
};

/* Copy @msg into @region at @offset and post it as one signaled SEND with @wr_id. */
void post_send(ibv_qp &qp, const Region &region, std::size_t offset,
	       std::span<const std::uint8_t> msg, std::uint64_t wr_id);

/* Post @length bytes of @region at @offset as a receive buffer with @wr_id. */
void post_recv(ibv_qp &qp, const Region &region, std::size_t offset, std::size_t length,
	       std::uint64_t wr_id);

} // namespace rdmablk::verbs
