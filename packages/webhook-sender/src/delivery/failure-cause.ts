/**
 * Why a delivery failed: a non-2xx status, a 3xx (never followed), a timeout, a network error,
 * a target refused by the policy (before sending or at connect time), or a disabled channel.
 */
export type DeliveryFailureCause =
  | 'http_status'
  | 'redirect'
  | 'timeout'
  | 'network'
  | 'target_rejected'
  | 'channel_disabled';
