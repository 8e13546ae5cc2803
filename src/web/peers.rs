//! Places per peer: the connections (or sessions) each address holds, a few at most,
//! so that one address cannot take every place of the server.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::{Arc, Mutex, MutexGuard};

/// The places of one kind that each address holds, at most `limit` each.
#[derive(Debug)]
pub struct PerPeer {
    limit: usize,
    held: Mutex<HashMap<IpAddr, usize>>,
}

/// A place that an address holds; given back when dropped.
#[derive(Debug)]
pub struct Place {
    places: Arc<PerPeer>,
    address: IpAddr,
}

impl PerPeer {
    pub fn new(limit: usize) -> Arc<PerPeer> {
        Arc::new(PerPeer {
            limit,
            held: Mutex::new(HashMap::new()),
        })
    }

    pub fn limit(&self) -> usize {
        self.limit
    }

    /// A place for `peer`, unless its address holds all it may.
    pub fn take(self: &Arc<PerPeer>, peer: IpAddr) -> Option<Place> {
        let address = address_of(peer);
        let mut held = self.held();
        let places = held.entry(address).or_default();
        if *places >= self.limit {
            return None;
        }
        *places += 1;
        Some(Place {
            places: self.clone(),
            address,
        })
    }

    /// How many places `peer`'s address holds.
    pub fn held_by(&self, peer: IpAddr) -> usize {
        self.held()
            .get(&address_of(peer))
            .copied()
            .unwrap_or_default()
    }

    fn held(&self) -> MutexGuard<'_, HashMap<IpAddr, usize>> {
        self.held.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut held = self.places.held();
        if let Some(places) = held.get_mut(&self.address) {
            *places -= 1;
            if *places == 0 {
                held.remove(&self.address);
            }
        }
    }
}

/// The address a peer counts as: its IPv4 address, or the /64 network of its IPv6
/// address (the least a site is given: one site's many addresses are one peer).
fn address_of(peer: IpAddr) -> IpAddr {
    match peer {
        IpAddr::V4(_) => peer,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(Ipv6Addr::from(u128::from(v6) & !(u128::MAX >> 64))),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_holds_at_most_its_limit_and_gets_its_places_back() {
        let places = PerPeer::new(2);
        let one: IpAddr = "10.0.0.1".parse().unwrap();
        let other: IpAddr = "10.0.0.2".parse().unwrap();
        let first = places.take(one).unwrap();
        let _second = places.take(one).unwrap();
        assert!(places.take(one).is_none());
        assert!(places.take(other).is_some());
        assert_eq!(places.held_by(one), 2);
        drop(first);
        assert_eq!(places.held_by(one), 1);
        let _third = places.take(one).unwrap();
        assert!(places.take(one).is_none());
    }

    #[test]
    fn an_ipv6_network_is_one_peer_and_a_mapped_ipv4_address_its_own() {
        let places = PerPeer::new(1);
        let _held = places.take("2001:db8:1:2::5".parse().unwrap()).unwrap();
        assert!(
            places
                .take("2001:db8:1:2:ffff::9".parse().unwrap())
                .is_none()
        );
        assert!(places.take("2001:db8:1:3::5".parse().unwrap()).is_some());
        let _v4 = places.take("10.0.0.1".parse().unwrap()).unwrap();
        assert!(places.take("::ffff:10.0.0.1".parse().unwrap()).is_none());
    }
}
