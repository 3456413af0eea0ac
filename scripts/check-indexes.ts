console.log('after ok')
