//! Getting a device, and reading buffers back, the same way natively and on the web.

use crate::error::{Error, Result};
use std::sync::{Arc, Mutex};
use std::task::{Poll, Waker};

/// A device and queue with the adapter they came from.
pub struct GpuContext {
    pub adapter: wgpu::Adapter,
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
}

/// Which adapter to take.
#[derive(Clone, Debug, Default)]
pub struct AdapterRequest {
    /// Backends to consider; `None` means what `WGPU_BACKEND` says, else all.
    pub backends: Option<wgpu::Backends>,
    /// Take the first adapter whose name contains this (case-insensitive).
    pub name_contains: Option<String>,
}

/// How to get an adapter where none was found.
pub const NO_ADAPTER_HELP: &str = "no GPU adapter found. Install a GPU driver with Vulkan, Metal or DX12 support, \
or Mesa's software Vulkan (Debian: apt-get install mesa-vulkan-drivers libvulkan1; use Mesa 25 from \
bookworm-backports, see README.md) and run with WGPU_BACKEND=vulkan";

impl GpuContext {
    /// Opens the requested adapter with the features the allocator can use (timestamp queries
    /// where offered) and the adapter's own limits, never wgpu's defaults.
    pub async fn new(request: &AdapterRequest) -> Result<GpuContext> {
        let mut desc = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
        if let Some(b) = request.backends {
            desc.backends = b;
        }
        let backends = desc.backends;
        let instance = wgpu::Instance::new(desc);
        let adapter = match &request.name_contains {
            Some(name) => {
                let want = name.to_lowercase();
                let adapters = instance.enumerate_adapters(backends).await;
                let names: Vec<String> = adapters.iter().map(|a| a.get_info().name).collect();
                adapters
                    .into_iter()
                    .find(|a| a.get_info().name.to_lowercase().contains(&want))
                    .ok_or_else(|| {
                        Error::NoAdapter(format!(
                            "no adapter named like '{name}'; available: {names:?}"
                        ))
                    })?
            }
            None => instance
                .request_adapter(&wgpu::RequestAdapterOptions {
                    power_preference: wgpu::PowerPreference::HighPerformance,
                    ..Default::default()
                })
                .await
                .map_err(|e| Error::NoAdapter(format!("{NO_ADAPTER_HELP} ({e})")))?,
        };
        let wanted = wgpu::Features::TIMESTAMP_QUERY | wgpu::Features::SUBGROUP;
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("ouroboros-wgpu"),
                required_features: adapter.features() & wanted,
                required_limits: adapter.limits(),
                ..Default::default()
            })
            .await?;
        Ok(GpuContext {
            adapter,
            device,
            queue,
        })
    }

    /// Whether GPU timestamps can be taken around compute passes.
    pub fn has_timestamps(&self) -> bool {
        self.device
            .features()
            .contains(wgpu::Features::TIMESTAMP_QUERY)
    }
}

/// Blocks on a future natively (the library's async API from synchronous code).
#[cfg(not(target_arch = "wasm32"))]
pub fn block_on<F: std::future::Future>(f: F) -> F::Output {
    pollster::block_on(f)
}

/// Maps `buffer` (MAP_READ) and copies out its first `len` bytes. Natively this waits for the
/// device; on the web it yields to the browser until the map completes.
pub async fn read_buffer(
    device: &wgpu::Device,
    buffer: &wgpu::Buffer,
    len: u64,
) -> Result<Vec<u8>> {
    #[derive(Default)]
    struct Slot {
        result: Option<std::result::Result<(), wgpu::BufferAsyncError>>,
        waker: Option<Waker>,
    }
    let slot = Arc::new(Mutex::new(Slot::default()));
    let for_callback = slot.clone();
    buffer.map_async(wgpu::MapMode::Read, 0..len, move |r| {
        let mut s = for_callback.lock().unwrap();
        s.result = Some(r);
        if let Some(w) = s.waker.take() {
            w.wake();
        }
    });
    #[cfg(not(target_arch = "wasm32"))]
    device
        .poll(wgpu::PollType::wait_indefinitely())
        .map_err(|e| Error::Readback(e.to_string()))?;
    #[cfg(target_arch = "wasm32")]
    let _ = device;
    std::future::poll_fn(|cx| {
        let mut s = slot.lock().unwrap();
        match s.result.take() {
            Some(r) => Poll::Ready(r),
            None => {
                s.waker = Some(cx.waker().clone());
                Poll::Pending
            }
        }
    })
    .await
    .map_err(|e| Error::Readback(e.to_string()))?;
    let bytes = buffer
        .slice(0..len)
        .get_mapped_range()
        .map_err(|e| Error::Readback(e.to_string()))?
        .to_vec();
    buffer.unmap();
    Ok(bytes)
}
